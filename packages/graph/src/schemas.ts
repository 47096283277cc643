import { z } from 'zod';
import { graphLimits as limits } from './limits.js';

// Raw shapes are what `registerTool` takes; the object schemas around them are what the store
// parses with, so an embedder calling the store directly gets the same checks as an MCP client.

const occurredAt = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
    'occurred_at must be a date or date-time such as "2026-08-05 12:00:00" or "2026-08-05T12:00:00Z"',
  );

// One rule for keys on every path: text that UTF-8 cannot hold (a lone UTF-16 surrogate) is
// refused, never normalised, so a key written is the key read and no two keys collide.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormedKey = (name: string) =>
  [
    (text: string) => !loneSurrogate.test(text),
    {
      error: `${name} holds a lone UTF-16 surrogate, which a key cannot carry: send well-formed Unicode`,
    },
  ] as const;

const source = z
  .string()
  .min(1, 'source must name who wrote this, e.g. "agent:mecha"')
  .max(limits.sourceCharacters, `source is at most ${limits.sourceCharacters} characters`)
  .refine(...wellFormedKey('source'));

const sourceId = z
  .string()
  .min(1, 'source_id must be the id of the item in its source, e.g. a session id')
  .max(limits.sourceIdCharacters, `source_id is at most ${limits.sourceIdCharacters} characters`)
  .refine(...wellFormedKey('source_id'));

const id = z.number().int().positive();

/** Offset + limit paging shared by every read tool; a limit over the cap is clamped, not refused. */
export const pageShape = {
  offset: z
    .number()
    .int()
    .min(0)
    .max(limits.offsetMax)
    .optional()
    .describe("items to skip; pass the previous reply's next_offset"),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      `items per page (default ${limits.pageSizeDefault}, at most ${limits.pageSizeMax}; larger is clamped)`,
    ),
};

/** What `kg_upsert` takes: one episode, keyed on (source, source_id). */
export const episodeShape = {
  kind: z.string().min(1).max(limits.kindCharacters).describe('what the item is, e.g. "episode"'),
  source: source.describe('who wrote it; fixed at "agent:mecha" for mecha distill'),
  source_id: sourceId.describe('its id in that source (a session id); the key with source'),
  source_ref: z
    .string()
    .max(limits.sourceRefCharacters)
    .nullish()
    .describe('where the original lives, e.g. a transcript path'),
  occurred_at: occurredAt,
  body: z
    .string()
    .min(1, 'body is empty: send the episode text')
    .max(
      limits.bodyCharacters,
      `body is over ${limits.bodyCharacters} characters: shorten the episode (two to eight sentences is the aim) and send it again`,
    ),
  // Any JSON value, spelled out (an empty `additionalProperties: {}` trips strict inspectors).
  meta: z
    .record(z.string(), z.json())
    .optional()
    .describe(
      'JSON metadata; entities: [{name, type}] and relations: [{subject, predicate, object}] become candidate facts; corrections: [{wrong, right?, about?}] are applied when taint is clean',
    ),
};
/** The store's own check: meta is taken as any object and made plain JSON afterwards. */
export const episodeSchema = z.object({
  ...episodeShape,
  meta: z.record(z.string(), z.unknown()).optional(),
});
/** An episode as a caller sends it. */
export type EpisodeInput = z.input<typeof episodeSchema>;

const factPart = z.string().min(1).max(limits.factPartCharacters);
const tripleSchema = z.object({ subject: factPart, predicate: factPart, object: factPart });
const beliefText = z
  .string()
  .min(1)
  .max(
    limits.correctionTextCharacters,
    `a belief's text is at most ${limits.correctionTextCharacters} characters`,
  );

/** One correction: the belief that is wrong and, unless it is denied outright, what is right. */
export const correctionItemSchema = z.object({
  wrong: z
    .union([beliefText, z.object({ fact_id: id }), tripleSchema])
    .describe(
      'the wrong belief: its text ("Priya is at Brown"), {fact_id}, or {subject, predicate, object}',
    ),
  right: z
    .union([beliefText, tripleSchema])
    .nullish()
    .describe('what is true instead; leave it out to deny the wrong belief outright'),
  about: z.string().max(limits.factPartCharacters).nullish().describe('who or what it is about'),
  grounded: z
    .boolean()
    .optional()
    .describe(
      "false: the reporter could not ground it in the owner's own words, so it waits in review (reason ungrounded) and closes nothing",
    ),
});
/** One correction as a caller sends it. */
export type CorrectionRequest = z.input<typeof correctionItemSchema>;

export const correctShape = {
  source: source.describe('who reports the corrections, e.g. "agent:mecha"'),
  source_id: sourceId.nullish().describe('the session the corrections came from'),
  occurred_at: occurredAt.nullish().describe('when the belief stopped holding (default: now)'),
  corrections: z
    .array(correctionItemSchema)
    .min(1, 'corrections is empty: send at least one {wrong, right?}')
    .max(
      limits.correctionsPerCall,
      `at most ${limits.correctionsPerCall} corrections per call: send the rest in another call`,
    ),
};
export const correctSchema = z.object(correctShape);
/** What `kg_correct` takes. */
export type CorrectInput = z.input<typeof correctSchema>;

/** Which facts a search returns: current ones (staged or accepted) unless asked otherwise. */
export const factStatusFilter = z.enum([
  'current',
  'all',
  'staged',
  'accepted',
  'closed',
  'denied',
  'rejected',
  'retracted',
]);

export const searchShape = {
  query: z
    .string()
    .max(limits.queryCharacters)
    .optional()
    .describe('text to find in a fact as it reads, e.g. "Priya Nair is at" (case-insensitive)'),
  subject: z
    .string()
    .max(limits.factPartCharacters)
    .optional()
    .describe('only facts about this subject, matched whole (case-insensitive), e.g. "Priya Nair"'),
  status: factStatusFilter.optional().describe('default "current": staged and accepted facts'),
  ...pageShape,
};
export const searchSchema = z.object(searchShape);
/** What `kg_search` takes. */
export type SearchInput = z.input<typeof searchSchema>;

export const getShape = {
  fact_id: id.optional(),
  episode_id: id.optional(),
  source: source.optional().describe('with source_id: the episode with that key'),
  source_id: sourceId.optional(),
};
export const getSchema = z.object(getShape);
/** kg_get's schema as tools/list shows it: the "exactly one of" spelled out as `oneOf`. */
export const getToolSchema = z.object(getShape).meta({
  oneOf: [
    { required: ['fact_id'] },
    { required: ['episode_id'] },
    { required: ['source', 'source_id'] },
  ],
});
/** What `kg_get` takes: exactly one of fact_id, episode_id or (source, source_id). */
export type GetInput = z.input<typeof getSchema>;

export const episodesShape = {
  source: source.optional().describe('only episodes from this source'),
  include_redacted: z.boolean().optional().describe('list redaction tombstones too'),
  ...pageShape,
};
export const episodesSchema = z.object(episodesShape);
/** What `kg_episodes` takes. */
export type EpisodesInput = z.input<typeof episodesSchema>;

export const reviewListShape = {
  queue: z
    .enum(['facts', 'corrections'])
    .optional()
    .describe('"facts" (default): staged candidates; "corrections": ones no single belief matched'),
  ...pageShape,
};
export const reviewListSchema = z.object(reviewListShape);
/** What `kg_review_list` takes. */
export type ReviewListInput = z.input<typeof reviewListSchema>;

export const decideShape = {
  fact_id: id.describe('a staged fact from kg_review_list'),
  decision: z
    .enum(['accept', 'reject'])
    .describe('accept makes it a belief; reject closes it and records a denial'),
};
export const decideSchema = z.object(decideShape);
/** What `kg_review_decide` takes. */
export type DecideInput = z.input<typeof decideSchema>;

export const resolveCorrectionShape = {
  correction_id: id.describe('a correction from kg_review_list with queue "corrections"'),
  fact_id: id
    .optional()
    .describe('the belief it meant: the correction is applied to it; leave out to dismiss'),
};
export const resolveCorrectionSchema = z.object(resolveCorrectionShape);
/** What `kg_correction_resolve` takes. */
export type ResolveCorrectionInput = z.input<typeof resolveCorrectionSchema>;

export const redactShape = {
  source: source.describe('the source set to take out, e.g. "agent:mecha"'),
  source_id: sourceId.optional().describe('only this one item of the source'),
  dry_run: z.boolean().optional().describe('report what would change and change nothing'),
};
export const redactSchema = z.object(redactShape);
/** What `kg_redact` takes. */
export type RedactInput = z.input<typeof redactSchema>;
