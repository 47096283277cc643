import type { GraphDatabase } from './graph-database.js';
import { cleanName, factKey, nameKey } from './normalize-text.js';

/** Where a fact stands. Staged and accepted are current; the rest are closed in time. */
export type FactStatus = 'staged' | 'accepted' | 'closed' | 'denied' | 'rejected' | 'retracted';

/** The shape a fact has before it is stored: a cleaned triple and its identity. */
export interface FactDraft {
  readonly kind: 'entity' | 'relation' | 'statement';
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  readonly key: string;
}

/** A stored fact as the write paths need it. */
export interface FactRow {
  readonly id: number;
  readonly kind: 'entity' | 'relation' | 'statement';
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  readonly fact_key: string;
  readonly status: FactStatus;
}

/** The predicate a statement fact carries; its object is the whole text. */
export const statementPredicate = 'states';

/** Builds a draft from raw parts, cleaning each; undefined when a part is empty or too long. */
export function draftFact(
  kind: FactDraft['kind'],
  subject: string,
  predicate: string,
  object: string,
  maxPart: number,
): FactDraft | undefined {
  const parts = [cleanName(subject), cleanName(predicate), cleanName(object)] as const;
  if (kind !== 'statement' && parts.some((part) => part === '' || part.length > maxPart)) return;
  if (kind === 'statement' && (parts[2] === '' || parts[0].length > maxPart)) return;
  return { kind, subject: parts[0], predicate: parts[1], object: parts[2], key: factKey(...parts) };
}

/** How a fact reads as one sentence, which is also what a correction's text is matched against. */
export function factText(fact: Pick<FactRow, 'kind' | 'subject' | 'predicate' | 'object'>): string {
  return fact.kind === 'statement'
    ? fact.object
    : `${fact.subject} ${fact.predicate} ${fact.object}`;
}

const factColumns = 'id, kind, subject, predicate, object, fact_key, status';

export function findFact(graph: GraphDatabase, id: number): Promise<FactRow | undefined> {
  return graph.get<FactRow>(`SELECT ${factColumns} FROM facts WHERE id = ?`, id);
}

/** The one open (staged or accepted) fact with this identity, if any. */
export function findOpenFact(graph: GraphDatabase, key: string): Promise<FactRow | undefined> {
  return graph.get<FactRow>(
    `SELECT ${factColumns} FROM facts WHERE fact_key = ? AND closed_at IS NULL`,
    key,
  );
}

/** The comparison form of a fact's text, which corrections and denials match on. */
export function textKey(fact: Pick<FactRow, 'kind' | 'subject' | 'predicate' | 'object'>): string {
  return nameKey(factText(fact));
}

/**
 * Whether a denial names this fact: by identity, or by the same text in another shape (a denied
 * relation "Priya is at Brown" also blocks the statement "Priya is at Brown").
 */
export async function isDenied(
  graph: GraphDatabase,
  fact: Pick<FactRow, 'kind' | 'subject' | 'predicate' | 'object'> & { readonly key: string },
): Promise<boolean> {
  return (
    (await graph.get(
      'SELECT 1 AS denied FROM denials WHERE fact_key = ? OR text_key = ?',
      fact.key,
      textKey(fact),
    )) !== undefined
  );
}

/** Inserts a staged fact; the caller has checked denials and that none is open for its key. */
export async function insertStagedFact(
  graph: GraphDatabase,
  draft: FactDraft,
  origin: 'extractor' | 'correction',
  validFrom: string,
  supersedes: number | null,
  now: string,
): Promise<number> {
  const inserted = await graph.get<{ id: number }>(
    `INSERT INTO facts (kind, subject, predicate, object, fact_key, subject_key, text_key, status, origin, valid_from, supersedes, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'staged', ?, ?, ?, ?) RETURNING id`,
    draft.kind,
    draft.subject,
    draft.predicate,
    draft.object,
    draft.key,
    nameKey(draft.subject),
    textKey(draft),
    origin,
    validFrom,
    supersedes,
    now,
  );
  return Number(inserted?.id);
}

/** Adds one support row; false when that evidence already supported the fact. */
export async function addSupport(
  graph: GraphDatabase,
  factId: number,
  evidence: { readonly episodeId: number } | { readonly correctionId: number },
  via: 'extractor' | 'correction',
  now: string,
): Promise<boolean> {
  const changes = await graph.run(
    `INSERT INTO support (fact_id, episode_id, correction_id, via, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING`,
    factId,
    'episodeId' in evidence ? evidence.episodeId : null,
    'correctionId' in evidence ? evidence.correctionId : null,
    via,
    now,
  );
  return changes > 0;
}

export async function supportCount(graph: GraphDatabase, factId: number): Promise<number> {
  const row = await graph.get<{ n: number }>(
    'SELECT count(*) AS n FROM support WHERE fact_id = ?',
    factId,
  );
  return row?.n ?? 0;
}

/** Closes an open fact in time: never deleted, its row keeps what was believed and until when. */
export async function closeFact(
  graph: GraphDatabase,
  factId: number,
  status: Exclude<FactStatus, 'staged' | 'accepted'>,
  reason: string,
  validTo: string,
  now: string,
): Promise<void> {
  await graph.run(
    `UPDATE facts SET status = ?, closed_reason = ?, valid_to = ?, closed_at = ?
     WHERE id = ? AND closed_at IS NULL`,
    status,
    reason,
    validTo,
    now,
    factId,
  );
}

/** Records that a fact's identity is denied; every later write path checks this table. */
export async function recordDenial(
  graph: GraphDatabase,
  fact: FactRow,
  reason: 'correction' | 'review',
  correctionId: number | null,
  now: string,
): Promise<void> {
  await graph.run(
    `INSERT INTO denials (fact_key, text_key, subject, predicate, object, reason, fact_id, correction_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    fact.fact_key,
    textKey(fact),
    fact.subject,
    fact.predicate,
    fact.object,
    reason,
    fact.id,
    correctionId,
    now,
  );
}

/** Makes sure a source has its row (where its trust is kept). */
export async function ensureSource(
  graph: GraphDatabase,
  source: string,
  now: string,
): Promise<void> {
  await graph.run(
    'INSERT INTO sources (source, first_seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    source,
    now,
  );
}
