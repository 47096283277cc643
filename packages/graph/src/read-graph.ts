import type { ReviewReason } from './apply-corrections.js';
import type { JsonValue } from './content-hash.js';
import { type Taint, taintSql } from './episode-taint.js';
import { type FactStatus, factText, isDenied } from './fact-rows.js';
import type { GraphDatabase } from './graph-database.js';
import { GraphInputError } from './graph-input-error.js';
import { graphLimits } from './limits.js';
import { nameKey } from './normalize-text.js';
import { parseInput } from './parse-input.js';
import {
  type EpisodesInput,
  episodesSchema,
  type GetInput,
  getSchema,
  type ReviewListInput,
  reviewListSchema,
  type SearchInput,
  searchSchema,
} from './schemas.js';

/** Closed statuses a read leaves out by default, counted so nothing is hidden silently. */
export interface Suppressed {
  readonly closed: number;
  readonly denied: number;
  readonly rejected: number;
  readonly retracted: number;
  readonly redacted: number;
}

/** One page of a read: offset + limit, clamped to the cap, with what was left out. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Items matching the read in all pages. */
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
  /** The requested limit was over graphLimits.pageSizeMax and was clamped. */
  readonly limit_capped: boolean;
  /** Pass as offset for the next page; null on the last page. */
  readonly next_offset: number | null;
  readonly suppressed: Suppressed;
}

/** A source with the trust it has earned: 1 / (1 + corrections against it). */
export interface SourceTrust {
  readonly source: string;
  readonly trust: number;
}

/** Where a fact came from: the evidence rows that support it (its reference count). */
export interface FactProvenance {
  /** Support rows: the fact's reference count. */
  readonly support_count: number;
  readonly sources: readonly SourceTrust[];
  /** The newest supporting episodes (up to a cap; support_count has the full count). */
  readonly episodes: readonly {
    readonly episode_id: number;
    readonly source: string;
    readonly source_id: string;
    readonly taint: Taint;
  }[];
  readonly episode_ids: readonly number[];
  /** Corrections whose replacement this fact is. */
  readonly correction_ids: readonly number[];
  /** The taint of every supporting episode, counted. */
  readonly taint: { readonly clean: number; readonly untrusted: number; readonly unknown: number };
}

/** A fact as every read returns it: the triple, its status in time, trust and provenance. */
export interface FactItem {
  readonly type: 'fact';
  readonly id: number;
  readonly kind: 'entity' | 'relation' | 'statement';
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  readonly text: string;
  readonly status: FactStatus;
  /** The highest trust among the sources that support it; 0 with no support. */
  readonly trust: number;
  readonly origin: 'extractor' | 'correction';
  readonly valid_from: string;
  readonly valid_to: string | null;
  readonly closed_at: string | null;
  readonly closed_reason: string | null;
  readonly supersedes: number | null;
  readonly created_at: string;
  readonly decided_at: string | null;
  readonly provenance: FactProvenance;
}

/** A fact with everything kg_get adds. */
export interface FactDetail extends FactItem {
  readonly denied: boolean;
  readonly superseded_by: readonly number[];
  readonly corrections: readonly CorrectionItem[];
}

/** An episode as listed: a body preview, its status, trust and provenance. */
export interface EpisodeItem {
  readonly type: 'episode';
  readonly id: number;
  readonly kind: string;
  readonly source: string;
  readonly source_id: string;
  readonly source_ref: string | null;
  readonly occurred_at: string;
  readonly body: string;
  readonly body_truncated: boolean;
  readonly status: 'current' | 'redacted';
  readonly trust: number;
  readonly taint: Taint;
  readonly salience: number;
  readonly version: number;
  readonly content_hash: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly redacted_at: string | null;
  /** Facts this episode supports. */
  readonly fact_count: number;
  readonly provenance: {
    readonly source: string;
    readonly source_id: string;
    readonly episode_ids: readonly number[];
  };
}

/** An episode with its whole body, its metadata and the facts it supports. */
export interface EpisodeDetail extends EpisodeItem {
  readonly meta: JsonValue;
  readonly facts: readonly {
    readonly id: number;
    readonly text: string;
    readonly status: FactStatus;
    readonly via: 'extractor' | 'correction';
  }[];
}

/** A correction as review and kg_get show it. */
export interface CorrectionItem {
  readonly type: 'correction';
  readonly id: number;
  readonly status: 'applied' | 'denied' | 'review' | 'dismissed';
  readonly wrong: JsonValue;
  readonly right: JsonValue;
  readonly about: string | null;
  readonly review_reason: ReviewReason | null;
  readonly candidates: readonly number[];
  readonly wrong_fact_id: number | null;
  readonly replacement_fact_id: number | null;
  readonly replacement_blocked: boolean;
  readonly trust: number;
  readonly occurred_at: string | null;
  readonly created_at: string;
  readonly resolved_at: string | null;
  readonly provenance: {
    readonly source: string;
    readonly source_id: string | null;
    readonly episode_ids: readonly number[];
  };
}

/** A staged fact in the review queue, with how soon it deserves a look. */
export interface ReviewFactItem extends FactItem {
  readonly salience: number;
}

const noneSuppressed: Suppressed = { closed: 0, denied: 0, rejected: 0, retracted: 0, redacted: 0 };
const closedStatuses = ['closed', 'denied', 'rejected', 'retracted'] as const;

function bounds(input: { offset?: number | undefined; limit?: number | undefined }) {
  const requested = input.limit ?? graphLimits.pageSizeDefault;
  const limit = Math.min(requested, graphLimits.pageSizeMax);
  return { offset: input.offset ?? 0, limit, limit_capped: requested > limit };
}

function page<T>(
  items: readonly T[],
  total: number,
  at: ReturnType<typeof bounds>,
  suppressed: Suppressed,
): Page<T> {
  const next = at.offset + items.length;
  return {
    items,
    total,
    ...at,
    next_offset: next < total && items.length > 0 ? next : null,
    suppressed,
  };
}

function trustOf(correctionsAgainst: number): number {
  return Math.round((1 / (1 + correctionsAgainst)) * 1000) / 1000;
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

interface FactRecord {
  id: number;
  kind: FactItem['kind'];
  subject: string;
  predicate: string;
  object: string;
  status: FactStatus;
  origin: FactItem['origin'];
  valid_from: string;
  valid_to: string | null;
  closed_at: string | null;
  closed_reason: string | null;
  supersedes: number | null;
  created_at: string;
  decided_at: string | null;
}

const factSelect = `f.id, f.kind, f.subject, f.predicate, f.object, f.status, f.origin, f.valid_from,
  f.valid_to, f.closed_at, f.closed_reason, f.supersedes, f.created_at, f.decided_at`;

/** Attaches trust and provenance to fact rows, in a fixed number of queries per page. */
function withProvenance(
  graph: GraphDatabase,
  rows: readonly FactRecord[],
  perItem: number,
): FactItem[] {
  if (rows.length === 0) return [];
  // One JSON array parameter instead of a list of placeholders keeps each statement cached.
  const ids = JSON.stringify(rows.map((row) => row.id));
  const list = 'SELECT value FROM json_each(?)';
  const counts = new Map(
    (
      graph
        .sql(
          `SELECT s.fact_id AS fact_id, count(*) AS support_count,
             sum(CASE WHEN e.id IS NOT NULL AND (${taintSql}) = 'clean' THEN 1 ELSE 0 END) AS clean,
             sum(CASE WHEN e.id IS NOT NULL AND (${taintSql}) = 'untrusted' THEN 1 ELSE 0 END) AS untrusted,
             sum(CASE WHEN e.id IS NOT NULL AND (${taintSql}) = 'unknown' THEN 1 ELSE 0 END) AS unknown
           FROM support s LEFT JOIN episodes e ON e.id = s.episode_id
           WHERE s.fact_id IN (${list}) GROUP BY s.fact_id`,
        )
        .all(ids) as {
        fact_id: number;
        support_count: number;
        clean: number;
        untrusted: number;
        unknown: number;
      }[]
    ).map((row) => [row.fact_id, row]),
  );
  const episodes = graph
    .sql(
      `SELECT fact_id, episode_id, source, source_id, taint FROM (
         SELECT s.fact_id AS fact_id, e.id AS episode_id, e.source AS source, e.source_id AS source_id,
           ${taintSql} AS taint,
           row_number() OVER (PARTITION BY s.fact_id ORDER BY e.id DESC) AS rank
         FROM support s JOIN episodes e ON e.id = s.episode_id WHERE s.fact_id IN (${list}))
       WHERE rank <= ? ORDER BY fact_id, episode_id DESC`,
    )
    .all(ids, perItem) as {
    fact_id: number;
    episode_id: number;
    source: string;
    source_id: string;
    taint: Taint;
  }[];
  const corrections = graph
    .sql(
      `SELECT fact_id, correction_id FROM (
         SELECT s.fact_id AS fact_id, s.correction_id AS correction_id,
           row_number() OVER (PARTITION BY s.fact_id ORDER BY s.correction_id DESC) AS rank
         FROM support s WHERE s.correction_id IS NOT NULL AND s.fact_id IN (${list}))
       WHERE rank <= ? ORDER BY fact_id, correction_id DESC`,
    )
    .all(ids, perItem) as { fact_id: number; correction_id: number }[];
  const sources = graph
    .sql(
      `SELECT b.fact_id AS fact_id, b.source AS source, src.corrections_against AS corrections_against FROM (
         SELECT s.fact_id AS fact_id, e.source AS source FROM support s JOIN episodes e ON e.id = s.episode_id
           WHERE s.fact_id IN (${list})
         UNION
         SELECT s.fact_id, c.source FROM support s JOIN corrections c ON c.id = s.correction_id
           WHERE s.fact_id IN (${list})) b
       JOIN sources src ON src.source = b.source ORDER BY b.fact_id, src.corrections_against, b.source`,
    )
    .all(ids, ids) as { fact_id: number; source: string; corrections_against: number }[];
  return rows.map((row) => {
    const count = counts.get(row.id);
    const mine = episodes.filter((episode) => episode.fact_id === row.id);
    const trusted = sources
      .filter((source) => source.fact_id === row.id)
      .slice(0, perItem)
      .map((source) => ({ source: source.source, trust: trustOf(source.corrections_against) }));
    return {
      type: 'fact',
      ...row,
      text: factText(row),
      trust: trusted.reduce((best, source) => Math.max(best, source.trust), 0),
      provenance: {
        support_count: count?.support_count ?? 0,
        sources: trusted,
        episodes: mine.map(({ episode_id, source, source_id, taint }) => ({
          episode_id,
          source,
          source_id,
          taint,
        })),
        episode_ids: mine.map((episode) => episode.episode_id),
        correction_ids: corrections
          .filter((correction) => correction.fact_id === row.id)
          .map((correction) => correction.correction_id),
        taint: {
          clean: count?.clean ?? 0,
          untrusted: count?.untrusted ?? 0,
          unknown: count?.unknown ?? 0,
        },
      },
    };
  });
}

/**
 * Facts about a subject and/or whose text contains the query, newest first; current (staged or
 * accepted) ones unless asked, with the closed ones that matched counted.
 */
export function searchFacts(graph: GraphDatabase, input: SearchInput): Page<FactItem> {
  const parsed = parseInput(searchSchema, input, 'kg_search request');
  const at = bounds(parsed);
  const status = parsed.status ?? 'current';
  const query = nameKey(parsed.query ?? '');
  const subject = parsed.subject === undefined ? '' : nameKey(parsed.subject);
  const clauses = ['1 = 1'];
  const parameters: string[] = [];
  if (subject !== '') {
    clauses.push('f.subject_key = ?');
    parameters.push(subject);
  }
  if (query !== '') {
    clauses.push(`f.text_key LIKE ? ESCAPE '\\'`);
    parameters.push(`%${escapeLike(query)}%`);
  }
  const where = clauses.join(' AND ');
  const byStatus = new Map(
    (
      graph
        .sql(
          `SELECT f.status AS status, count(*) AS n FROM facts f WHERE ${where} GROUP BY f.status`,
        )
        .all(...parameters) as { status: FactStatus; n: number }[]
    ).map((row) => [row.status, row.n]),
  );
  const included: readonly FactStatus[] =
    status === 'current'
      ? ['staged', 'accepted']
      : status === 'all'
        ? ['staged', 'accepted', ...closedStatuses]
        : [status];
  const total = included.reduce((sum, each) => sum + (byStatus.get(each) ?? 0), 0);
  const suppressed = { ...noneSuppressed };
  for (const each of closedStatuses) {
    if (!included.includes(each)) suppressed[each] = byStatus.get(each) ?? 0;
  }
  const rows = graph
    .sql(
      `SELECT ${factSelect} FROM facts f WHERE ${where} AND f.status IN (${placeholders(included.length)})
       ORDER BY f.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...parameters, ...included, at.limit, at.offset) as FactRecord[];
  return page(withProvenance(graph, rows, graphLimits.provenancePerItem), total, at, suppressed);
}

interface EpisodeRecord {
  id: number;
  kind: string;
  source: string;
  source_id: string;
  source_ref: string | null;
  occurred_at: string;
  body: string;
  body_length: number;
  taint: Taint;
  salience: number;
  version: number;
  content_hash: string;
  created_at: string;
  updated_at: string;
  redacted_at: string | null;
  corrections_against: number;
  fact_count: number;
}

function episodeSelect(body: string): string {
  return `e.id, e.kind, e.source, e.source_id, e.source_ref, e.occurred_at, ${body} AS body,
    length(e.body) AS body_length, ${taintSql} AS taint, e.salience, e.version, e.content_hash,
    e.created_at, e.updated_at, e.redacted_at, src.corrections_against AS corrections_against,
    (SELECT count(DISTINCT s.fact_id) FROM support s WHERE s.episode_id = e.id) AS fact_count`;
}

function episodeItem(row: EpisodeRecord): EpisodeItem {
  const { body_length, corrections_against, ...rest } = row;
  return {
    type: 'episode',
    ...rest,
    body_truncated: body_length > row.body.length,
    status: row.redacted_at === null ? 'current' : 'redacted',
    trust: trustOf(corrections_against),
    provenance: { source: row.source, source_id: row.source_id, episode_ids: [row.id] },
  };
}

/** Episodes, newest first, with a body preview; redaction tombstones only when asked. */
export function listEpisodes(graph: GraphDatabase, input: EpisodesInput): Page<EpisodeItem> {
  const parsed = parseInput(episodesSchema, input, 'kg_episodes request');
  const at = bounds(parsed);
  const where = parsed.source === undefined ? '1 = 1' : 'e.source = ?';
  const parameters = parsed.source === undefined ? [] : [parsed.source];
  const counts = graph
    .sql(
      `SELECT count(*) AS everything, count(e.redacted_at) AS redacted FROM episodes e WHERE ${where}`,
    )
    .get(...parameters) as { everything: number; redacted: number };
  const includeRedacted = parsed.include_redacted === true;
  const rows = graph
    .sql(
      `SELECT ${episodeSelect(`substr(e.body, 1, ${graphLimits.bodyPreviewCharacters})`)}
       FROM episodes e JOIN sources src ON src.source = e.source
       WHERE ${where} ${includeRedacted ? '' : 'AND e.redacted_at IS NULL'}
       ORDER BY e.occurred_at DESC, e.id DESC LIMIT ? OFFSET ?`,
    )
    .all(...parameters, at.limit, at.offset) as EpisodeRecord[];
  return page(
    rows.map(episodeItem),
    includeRedacted ? counts.everything : counts.everything - counts.redacted,
    at,
    { ...noneSuppressed, redacted: includeRedacted ? 0 : counts.redacted },
  );
}

interface CorrectionRecord {
  id: number;
  source: string;
  source_id: string | null;
  status: CorrectionItem['status'];
  wrong_spec: string;
  right_spec: string | null;
  about: string | null;
  review_reason: ReviewReason | null;
  candidates: string | null;
  wrong_fact_id: number | null;
  replacement_fact_id: number | null;
  replacement_blocked: number;
  occurred_at: string | null;
  created_at: string;
  resolved_at: string | null;
  corrections_against: number;
  episode_id: number | null;
}

const correctionSelect = `c.id, c.source, c.source_id, c.status, c.wrong_spec, c.right_spec, c.about,
  c.review_reason, c.candidates, c.wrong_fact_id, c.replacement_fact_id, c.replacement_blocked,
  c.occurred_at, c.created_at, c.resolved_at, src.corrections_against AS corrections_against,
  (SELECT e.id FROM episodes e WHERE e.source = c.source AND e.source_id = c.source_id
     AND e.redacted_at IS NULL) AS episode_id`;

function correctionItem(row: CorrectionRecord): CorrectionItem {
  return {
    type: 'correction',
    id: row.id,
    status: row.status,
    wrong: JSON.parse(row.wrong_spec) as JsonValue,
    right: row.right_spec === null ? null : (JSON.parse(row.right_spec) as JsonValue),
    about: row.about,
    review_reason: row.review_reason,
    candidates: row.candidates === null ? [] : (JSON.parse(row.candidates) as number[]),
    wrong_fact_id: row.wrong_fact_id,
    replacement_fact_id: row.replacement_fact_id,
    replacement_blocked: row.replacement_blocked === 1,
    trust: trustOf(row.corrections_against),
    occurred_at: row.occurred_at,
    created_at: row.created_at,
    resolved_at: row.resolved_at,
    provenance: {
      source: row.source,
      source_id: row.source_id,
      episode_ids: row.episode_id === null ? [] : [row.episode_id],
    },
  };
}

/** One fact or one episode with everything known about it. */
export function getItem(graph: GraphDatabase, input: GetInput): FactDetail | EpisodeDetail {
  const parsed = parseInput(getSchema, input, 'kg_get request');
  const byKey = parsed.source !== undefined || parsed.source_id !== undefined;
  const asked = [parsed.fact_id !== undefined, parsed.episode_id !== undefined, byKey].filter(
    Boolean,
  );
  if (
    asked.length !== 1 ||
    (byKey && (parsed.source === undefined || parsed.source_id === undefined))
  ) {
    throw new GraphInputError(
      'kg_get needs exactly one of: fact_id, episode_id, or source with source_id',
    );
  }
  if (parsed.fact_id !== undefined) return getFact(graph, parsed.fact_id);
  const row = graph
    .sql(
      `SELECT ${episodeSelect('e.body')}, e.meta AS meta FROM episodes e JOIN sources src ON src.source = e.source
       WHERE ${parsed.episode_id !== undefined ? 'e.id = ?' : 'e.source = ? AND e.source_id = ?'}`,
    )
    .get(
      ...(parsed.episode_id !== undefined
        ? [parsed.episode_id]
        : [parsed.source, parsed.source_id]),
    ) as (EpisodeRecord & { meta: string }) | undefined;
  if (row === undefined) {
    throw new GraphInputError(
      'no such episode: episode ids and (source, source_id) keys come from kg_episodes or kg_upsert',
    );
  }
  const { meta, ...record } = row;
  const facts = graph
    .sql(
      `SELECT f.id, f.kind, f.subject, f.predicate, f.object, f.status, s.via FROM support s
       JOIN facts f ON f.id = s.fact_id WHERE s.episode_id = ? ORDER BY f.id LIMIT ?`,
    )
    .all(row.id, graphLimits.factsPerEpisodeDetail) as {
    id: number;
    kind: FactItem['kind'];
    subject: string;
    predicate: string;
    object: string;
    status: FactStatus;
    via: 'extractor' | 'correction';
  }[];
  return {
    ...episodeItem(record),
    meta: JSON.parse(meta) as JsonValue,
    facts: facts.map((fact) => ({
      id: fact.id,
      text: factText(fact),
      status: fact.status,
      via: fact.via,
    })),
  };
}

function getFact(graph: GraphDatabase, id: number): FactDetail {
  const row = graph
    .sql(`SELECT ${factSelect}, f.fact_key AS fact_key FROM facts f WHERE f.id = ?`)
    .get(id) as (FactRecord & { fact_key: string }) | undefined;
  if (row === undefined) {
    throw new GraphInputError(
      `no fact with id ${id}: fact ids come from kg_search or kg_review_list`,
    );
  }
  const { fact_key, ...record } = row;
  const [item] = withProvenance(graph, [record], graphLimits.provenancePerDetail);
  const superseded = graph.sql('SELECT id FROM facts WHERE supersedes = ? ORDER BY id').all(id) as {
    id: number;
  }[];
  const corrections = graph
    .sql(
      `SELECT ${correctionSelect} FROM corrections c JOIN sources src ON src.source = c.source
       WHERE c.wrong_fact_id = ? OR c.replacement_fact_id = ? ORDER BY c.id LIMIT ?`,
    )
    .all(id, id, graphLimits.provenancePerDetail) as CorrectionRecord[];
  return {
    ...(item as FactItem),
    denied: isDenied(graph, { ...record, key: fact_key }),
    superseded_by: superseded.map((each) => each.id),
    corrections: corrections.map(correctionItem),
  };
}

/**
 * The review queue: staged facts, most salient first (the worst-going sessions' candidates), or
 * corrections that matched no single belief, oldest first.
 */
export function listReview(
  graph: GraphDatabase,
  input: ReviewListInput,
): Page<ReviewFactItem> | Page<CorrectionItem> {
  const parsed = parseInput(reviewListSchema, input, 'kg_review_list request');
  const at = bounds(parsed);
  if (parsed.queue === 'corrections') {
    const { n } = graph
      .sql(`SELECT count(*) AS n FROM corrections WHERE status = 'review'`)
      .get() as {
      n: number;
    };
    const rows = graph
      .sql(
        `SELECT ${correctionSelect} FROM corrections c JOIN sources src ON src.source = c.source
         WHERE c.status = 'review' ORDER BY c.id LIMIT ? OFFSET ?`,
      )
      .all(at.limit, at.offset) as CorrectionRecord[];
    return page(rows.map(correctionItem), n, at, noneSuppressed);
  }
  const { n } = graph.sql(`SELECT count(*) AS n FROM facts WHERE status = 'staged'`).get() as {
    n: number;
  };
  const rows = graph
    .sql(
      `SELECT ${factSelect}, coalesce((SELECT max(e.salience) FROM support s JOIN episodes e ON e.id = s.episode_id
         WHERE s.fact_id = f.id), 0) AS salience
       FROM facts f WHERE f.status = 'staged' ORDER BY salience DESC, f.id ASC LIMIT ? OFFSET ?`,
    )
    .all(at.limit, at.offset) as (FactRecord & { salience: number })[];
  const salience = new Map(rows.map((row) => [row.id, row.salience]));
  const items = withProvenance(
    graph,
    rows.map(({ salience: _, ...row }) => row),
    graphLimits.provenancePerItem,
  ).map((item) => ({ ...item, salience: salience.get(item.id) ?? 0 }));
  return page(items, n, at, noneSuppressed);
}
