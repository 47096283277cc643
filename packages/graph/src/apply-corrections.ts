import type { z } from 'zod';
import { contentHash } from './content-hash.js';
import {
  addSupport,
  closeFact,
  draftFact,
  ensureSource,
  type FactDraft,
  type FactRow,
  findFact,
  findOpenFact,
  insertStagedFact,
  isDenied,
  recordDenial,
  statementPredicate,
} from './fact-rows.js';
import type { GraphDatabase } from './graph-database.js';
import { graphLimits } from './limits.js';
import { cleanName, nameKey, toJsonValue } from './normalize-text.js';
import type { correctionItemSchema } from './schemas.js';

type ParsedCorrection = z.output<typeof correctionItemSchema>;

/** What became of one correction. */
export type CorrectionOutcome = 'applied' | 'denied' | 'review' | 'duplicate';

/**
 * Why a correction waits for a person instead of being acted on: it matched no belief or
 * several, its replacement is the belief itself, or its reporter said it is not grounded in the
 * owner's own words (`grounded: false`), so nobody may act on it without a person.
 */
export type ReviewReason = 'no_match' | 'ambiguous' | 'right_equals_wrong' | 'ungrounded';

/** One correction's result, in the order they were sent. */
export interface CorrectionResult {
  readonly outcome: CorrectionOutcome;
  readonly correction_id: number;
  readonly wrong_fact_id: number | null;
  readonly replacement_fact_id: number | null;
  /** The replacement was not staged because it is itself denied. */
  readonly replacement_blocked: boolean;
  readonly review_reason: ReviewReason | null;
  /** With review_reason "ambiguous": the beliefs it could have meant. */
  readonly candidates: readonly number[];
  readonly sources_marked_down: readonly string[];
}

/** The counts of each outcome (what mecha distill prints) and the results behind them. */
export interface CorrectionReport {
  readonly applied: number;
  readonly denied: number;
  readonly to_review: number;
  readonly duplicate: number;
  readonly results: readonly CorrectionResult[];
}

/** Who reports the corrections and when the wrong beliefs stopped holding. */
export interface CorrectionContext {
  readonly source: string;
  readonly source_id: string | null;
  readonly occurred_at: string | null;
}

const candidateCap = 20;

async function matchBelief(
  graph: GraphDatabase,
  wrong: ParsedCorrection['wrong'],
): Promise<FactRow[]> {
  if (typeof wrong === 'string') {
    return graph.all<FactRow>(
      `SELECT id, kind, subject, predicate, object, fact_key, status FROM facts
       WHERE text_key = ? AND closed_at IS NULL ORDER BY id LIMIT ${candidateCap + 1}`,
      nameKey(wrong),
    );
  }
  if ('fact_id' in wrong) {
    const fact = await findFact(graph, wrong.fact_id);
    return fact !== undefined && (fact.status === 'staged' || fact.status === 'accepted')
      ? [fact]
      : [];
  }
  const draft = tripleDraft(wrong);
  const open = draft === undefined ? undefined : await findOpenFact(graph, draft.key);
  return open === undefined ? [] : [open];
}

function tripleDraft(triple: {
  subject: string;
  predicate: string;
  object: string;
}): FactDraft | undefined {
  const kind = nameKey(triple.predicate) === 'is a' ? 'entity' : 'relation';
  return draftFact(
    kind,
    triple.subject,
    triple.predicate,
    triple.object,
    graphLimits.factPartCharacters,
  );
}

/**
 * The replacement belief. A triple is taken as given. Text that starts with the wrong belief's
 * subject and predicate ("Priya is at Yale" for "Priya is at Brown") keeps them and takes the
 * rest as the object; any other text is stored as a statement about `about` (or the subject).
 */
export function replacementDraft(
  right: NonNullable<ParsedCorrection['right']>,
  wrong: FactRow,
  about: string | null,
): FactDraft | undefined {
  if (typeof right !== 'string') return tripleDraft(right);
  const text = cleanName(right);
  if (wrong.kind !== 'statement') {
    const head = `${wrong.subject} ${wrong.predicate}`;
    if (
      text.length > head.length + 1 &&
      text[head.length] === ' ' &&
      nameKey(text.slice(0, head.length)) === nameKey(head)
    ) {
      return draftFact(
        wrong.kind,
        wrong.subject,
        wrong.predicate,
        text.slice(head.length + 1),
        graphLimits.factPartCharacters,
      );
    }
  }
  return draftFact(
    'statement',
    about ?? wrong.subject,
    statementPredicate,
    text,
    graphLimits.factPartCharacters,
  );
}

async function sourcesBehind(graph: GraphDatabase, factId: number): Promise<string[]> {
  const rows = await graph.all<{ source: string }>(
    `SELECT e.source AS source FROM support s JOIN episodes e ON e.id = s.episode_id WHERE s.fact_id = ?
     UNION
     SELECT c.source AS source FROM support s JOIN corrections c ON c.id = s.correction_id WHERE s.fact_id = ?
     ORDER BY source`,
    factId,
    factId,
  );
  return rows.map((row) => row.source);
}

/**
 * Acts on a matched belief: closes it in time, marks down every source that supported it,
 * then records a denial (no replacement) or stages the replacement unless that is denied.
 */
export async function actOnBelief(
  graph: GraphDatabase,
  correctionId: number,
  wrong: FactRow,
  replacement: FactDraft | null,
  validTo: string,
  now: string,
): Promise<
  Pick<CorrectionResult, 'replacement_fact_id' | 'replacement_blocked' | 'sources_marked_down'>
> {
  const marked = await sourcesBehind(graph, wrong.id);
  for (const source of marked) {
    await graph.run(
      'UPDATE sources SET corrections_against = corrections_against + 1 WHERE source = ?',
      source,
    );
  }
  await closeFact(
    graph,
    wrong.id,
    replacement === null ? 'denied' : 'closed',
    replacement === null
      ? `denied by correction ${correctionId}`
      : `corrected by correction ${correctionId}`,
    validTo,
    now,
  );
  let replacementId: number | null = null;
  let blocked = false;
  if (replacement === null) {
    await recordDenial(graph, wrong, 'correction', correctionId, now);
  } else if (await isDenied(graph, replacement)) {
    blocked = true;
  } else {
    replacementId =
      (await findOpenFact(graph, replacement.key))?.id ??
      (await insertStagedFact(graph, replacement, 'correction', validTo, wrong.id, now));
    await addSupport(graph, replacementId, { correctionId }, 'correction', now);
  }
  await graph.run(
    'UPDATE corrections SET wrong_fact_id = ?, replacement_fact_id = ?, replacement_blocked = ? WHERE id = ?',
    wrong.id,
    replacementId,
    blocked ? 1 : 0,
    correctionId,
  );
  return {
    replacement_fact_id: replacementId,
    replacement_blocked: blocked,
    sources_marked_down: marked,
  };
}

/**
 * Applies corrections inside the caller's write transaction. One that matches exactly one current
 * belief is acted on; none or several go to the review queue; one already recorded is a duplicate.
 */
export async function applyCorrections(
  graph: GraphDatabase,
  context: CorrectionContext,
  items: readonly ParsedCorrection[],
  now: string,
): Promise<CorrectionReport> {
  await ensureSource(graph, context.source, now);
  const results: CorrectionResult[] = [];
  for (const item of items) {
    const about = item.about == null ? null : cleanName(item.about) || null;
    const spec = {
      wrong: toJsonValue(item.wrong, 4),
      right: item.right == null ? null : toJsonValue(item.right, 4),
      about,
    };
    const key = contentHash({ source: context.source, source_id: context.source_id, ...spec });
    const existing = await graph.get<{
      id: number;
      wrong_fact_id: number | null;
      replacement_fact_id: number | null;
    }>(
      'SELECT id, wrong_fact_id, replacement_fact_id FROM corrections WHERE correction_key = ?',
      key,
    );
    if (existing !== undefined) {
      results.push({
        outcome: 'duplicate',
        correction_id: existing.id,
        wrong_fact_id: existing.wrong_fact_id,
        replacement_fact_id: existing.replacement_fact_id,
        replacement_blocked: false,
        review_reason: null,
        candidates: [],
        sources_marked_down: [],
      });
      continue;
    }
    const matches = await matchBelief(graph, item.wrong);
    const wrong = matches.length === 1 ? matches[0] : undefined;
    const replacement =
      wrong === undefined || item.right == null
        ? null
        : (replacementDraft(item.right, wrong, about) ?? null);
    let reason: ReviewReason | null = null;
    if (item.grounded === false) reason = 'ungrounded';
    else if (matches.length === 0) reason = 'no_match';
    else if (matches.length > 1) reason = 'ambiguous';
    else if (item.right != null && (replacement === null || replacement.key === wrong?.fact_key))
      reason = 'right_equals_wrong';
    const status = reason !== null ? 'review' : item.right == null ? 'denied' : 'applied';
    const candidates =
      matches.length > 1 || reason === 'ungrounded'
        ? matches.slice(0, candidateCap).map((fact) => fact.id)
        : [];
    const inserted = await graph.get<{ id: number }>(
      `INSERT INTO corrections (correction_key, source, source_id, wrong_spec, right_spec, about, status,
           review_reason, candidates, occurred_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      key,
      context.source,
      context.source_id,
      JSON.stringify(spec.wrong),
      spec.right === null ? null : JSON.stringify(spec.right),
      about,
      status,
      reason,
      candidates.length > 0 ? JSON.stringify(candidates) : null,
      context.occurred_at,
      now,
    );
    const correctionId = Number(inserted?.id);
    if (reason !== null || wrong === undefined) {
      results.push({
        outcome: 'review',
        correction_id: correctionId,
        wrong_fact_id: null,
        replacement_fact_id: null,
        replacement_blocked: false,
        review_reason: reason,
        candidates,
        sources_marked_down: [],
      });
      continue;
    }
    const acted = await actOnBelief(
      graph,
      correctionId,
      wrong,
      replacement,
      context.occurred_at ?? now,
      now,
    );
    results.push({
      outcome: status,
      correction_id: correctionId,
      wrong_fact_id: wrong.id,
      review_reason: null,
      candidates: [],
      ...acted,
    });
  }
  const count = (outcome: CorrectionOutcome) =>
    results.filter((result) => result.outcome === outcome).length;
  return {
    applied: count('applied'),
    denied: count('denied'),
    to_review: count('review'),
    duplicate: count('duplicate'),
    results,
  };
}
