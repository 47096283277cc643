import { z } from 'zod';

// What every tool answers as `structuredContent`, declared as its `outputSchema`. The server
// checks each reply against it, and the SDK's client checks it again, so these must stay exactly
// the shapes in read-graph/items.ts and the write results; graph-defects.test.ts calls every tool.

const count = z.number().int().nonnegative();
const id = z.number().int().positive();
const nullableText = z.string().nullable();
const factStatus = z.enum(['staged', 'accepted', 'closed', 'denied', 'rejected', 'retracted']);
const taint = z.enum(['clean', 'untrusted', 'unknown']);
const factKind = z.enum(['entity', 'relation', 'statement']);
const reviewReason = z
  .enum(['no_match', 'ambiguous', 'right_equals_wrong', 'ungrounded'])
  .nullable();

const suppressed = z.object({
  closed: count,
  denied: count,
  rejected: count,
  retracted: count,
  redacted: count,
});

function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: count,
    offset: count,
    limit: count,
    limit_capped: z.boolean(),
    next_offset: count.nullable(),
    suppressed,
  });
}

const factProvenance = z.object({
  support_count: count,
  sources: z.array(z.object({ source: z.string(), trust: z.number() })),
  episodes: z.array(z.object({ episode_id: id, source: z.string(), source_id: z.string(), taint })),
  episode_ids: z.array(id),
  correction_ids: z.array(id),
  taint: z.object({ clean: count, untrusted: count, unknown: count }),
});

const factFields = {
  type: z.literal('fact'),
  id,
  kind: factKind,
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  text: z.string(),
  status: factStatus,
  trust: z.number(),
  origin: z.enum(['extractor', 'correction']),
  valid_from: z.string(),
  valid_to: nullableText,
  closed_at: nullableText,
  closed_reason: nullableText,
  supersedes: id.nullable(),
  created_at: z.string(),
  decided_at: nullableText,
  provenance: factProvenance,
};
const factItem = z.object(factFields);
const reviewFactItem = z.object({ ...factFields, salience: z.number() });

const episodeProvenance = z.object({
  source: z.string(),
  source_id: z.string(),
  episode_ids: z.array(id),
});
const episodeFields = {
  type: z.literal('episode'),
  id,
  kind: z.string(),
  source: z.string(),
  source_id: z.string(),
  source_ref: nullableText,
  occurred_at: z.string(),
  body: z.string(),
  body_truncated: z.boolean(),
  status: z.enum(['current', 'redacted']),
  trust: z.number(),
  taint,
  salience: z.number(),
  version: count,
  content_hash: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  redacted_at: nullableText,
  fact_count: count,
  provenance: episodeProvenance,
};
const episodeItem = z.object(episodeFields);

const correctionItem = z.object({
  type: z.literal('correction'),
  id,
  status: z.enum(['applied', 'denied', 'review', 'dismissed']),
  wrong: z.json(),
  right: z.json(),
  about: nullableText,
  review_reason: reviewReason,
  candidates: z.array(id),
  wrong_fact_id: id.nullable(),
  replacement_fact_id: id.nullable(),
  replacement_blocked: z.boolean(),
  trust: z.number(),
  occurred_at: nullableText,
  created_at: z.string(),
  resolved_at: nullableText,
  provenance: z.object({
    source: z.string(),
    source_id: nullableText,
    episode_ids: z.array(id),
  }),
});

const correctionReport = z.object({
  applied: count,
  denied: count,
  to_review: count,
  duplicate: count,
  results: z.array(
    z.object({
      outcome: z.enum(['applied', 'denied', 'review', 'duplicate']),
      correction_id: id,
      wrong_fact_id: id.nullable(),
      replacement_fact_id: id.nullable(),
      replacement_blocked: z.boolean(),
      review_reason: reviewReason,
      candidates: z.array(id),
      sources_marked_down: z.array(z.string()),
    }),
  ),
});

/** kg_upsert. */
export const upsertOutput = z.object({
  outcome: z.enum(['inserted', 'updated', 'unchanged']),
  episode_id: id,
  version: count,
  content_hash: z.string(),
  facts: z.object({
    staged: count,
    supported: count,
    kept: count,
    blocked_by_denial: count,
    retracted: count,
    ignored: count,
  }),
  corrections: correctionReport.nullable(),
  corrections_withheld: count,
});

/** kg_correct. */
export const correctOutput = correctionReport;

/** kg_search. */
export const searchOutput = pageOf(factItem);

/** kg_episodes. */
export const episodesOutput = pageOf(episodeItem);

/** kg_review_list: staged facts (queue "facts") or correction items (queue "corrections"). */
export const reviewListOutput = pageOf(z.union([reviewFactItem, correctionItem]));

/**
 * kg_get: a fact with its details, or an episode with its body, meta and facts. An output
 * schema must be one object, so the two are one object whose `type` says which fields it has.
 */
export const getOutput = z.object({
  ...Object.fromEntries(
    Object.entries({ ...factFields, ...episodeFields }).map(([key, schema]) => [
      key,
      (schema as z.ZodType).optional(),
    ]),
  ),
  type: z.enum(['fact', 'episode']),
  id,
  status: z.union([factStatus, z.enum(['current', 'redacted'])]),
  provenance: z.union([factProvenance, episodeProvenance]),
  denied: z.boolean().optional(),
  superseded_by: z.array(id).optional(),
  corrections: z.array(correctionItem).optional(),
  meta: z.json().optional(),
  facts: z
    .array(
      z.object({
        id,
        text: z.string(),
        status: factStatus,
        via: z.enum(['extractor', 'correction']),
      }),
    )
    .optional(),
});

/** kg_review_decide. */
export const decideOutput = z.object({
  fact_id: id,
  status: z.enum(['accepted', 'rejected']),
  denial_recorded: z.boolean(),
});

/** kg_correction_resolve. */
export const resolveOutput = z.object({
  correction_id: id,
  status: z.enum(['applied', 'denied', 'dismissed']),
  wrong_fact_id: id.nullable(),
  replacement_fact_id: id.nullable(),
  replacement_blocked: z.boolean(),
  sources_marked_down: z.array(z.string()),
});

/** kg_redact. */
export const redactOutput = z.object({
  dry_run: z.boolean(),
  episodes_redacted: count,
  corrections_redacted: count,
  support_rows_removed: count,
  facts_closed: count,
  fact_ids_closed: z.array(id),
});
