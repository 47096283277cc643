import { z } from 'zod';
import { applyCorrections, type CorrectionReport } from './apply-corrections.js';
import { contentHash, type JsonValue } from './content-hash.js';
import { metaTaint } from './episode-taint.js';
import {
  addSupport,
  closeFact,
  draftFact,
  ensureSource,
  type FactDraft,
  type FactStatus,
  findOpenFact,
  insertStagedFact,
  isDenied,
  supportCount,
} from './fact-rows.js';
import type { GraphBackend, GraphDatabase } from './graph-database.js';
import { GraphInputError } from './graph-input-error.js';
import { graphLimits } from './limits.js';
import type { ExtractorEpisode } from './metadata-extractor.js';
import { toJsonValue, wellFormed } from './normalize-text.js';
import { parseInput } from './parse-input.js';
import { correctionItemSchema, type EpisodeInput, episodeSchema } from './schemas.js';

/** What the candidate facts of one upsert came to. */
export interface UpsertFactCounts {
  /** New facts put in the review queue. */
  readonly staged: number;
  /** Current facts this episode now also supports. */
  readonly supported: number;
  /** Candidates this episode already supported before (an update that kept them). */
  readonly kept: number;
  /** Candidates not staged because a denial names them. */
  readonly blocked_by_denial: number;
  /** Staged facts closed because the old version was their last support. */
  readonly retracted: number;
  /** Candidates dropped as empty, too long, duplicated or past the per-episode cap. */
  readonly ignored: number;
}

/** What `kg_upsert` reports. */
export interface UpsertResult {
  readonly outcome: 'inserted' | 'updated' | 'unchanged';
  readonly episode_id: number;
  readonly version: number;
  readonly content_hash: string;
  readonly facts: UpsertFactCounts;
  /** Corrections carried in `meta.corrections`, when there were any. */
  readonly corrections: CorrectionReport | null;
  /** Corrections in `meta.corrections` not acted on because the episode's taint is not clean. */
  readonly corrections_withheld: number;
}

const noFacts: UpsertFactCounts = {
  staged: 0,
  supported: 0,
  kept: 0,
  blocked_by_denial: 0,
  retracted: 0,
  ignored: 0,
};

interface PreparedEpisode extends ExtractorEpisode {
  readonly source_ref: string | null;
  readonly metaJson: string;
  readonly hash: string;
  readonly salience: number;
}

/** Validates, bounds and hashes an episode. The hash covers everything but the key. */
function prepareEpisode(input: EpisodeInput): PreparedEpisode {
  const parsed = parseInput(episodeSchema, input, 'episode');
  let meta: { readonly [key: string]: JsonValue };
  try {
    meta = toJsonValue(parsed.meta ?? {}, graphLimits.metaDepth) as {
      readonly [key: string]: JsonValue;
    };
  } catch (error) {
    throw new GraphInputError(
      `meta is not plain JSON (${(error as Error).message}): send JSON objects, arrays, strings, numbers, booleans and null only`,
    );
  }
  const metaJson = JSON.stringify(meta);
  if (metaJson.length > graphLimits.metaCharacters) {
    throw new GraphInputError(
      `meta is ${metaJson.length} characters as JSON, over the ${graphLimits.metaCharacters} limit: move bulky data out of meta and send it again`,
    );
  }
  const episode = {
    kind: wellFormed(parsed.kind),
    source: wellFormed(parsed.source),
    source_id: wellFormed(parsed.source_id),
    source_ref: parsed.source_ref == null ? null : wellFormed(parsed.source_ref),
    occurred_at: parsed.occurred_at,
    body: wellFormed(parsed.body),
    meta,
  };
  const hash = contentHash({
    kind: episode.kind,
    source_ref: episode.source_ref,
    occurred_at: episode.occurred_at,
    body: episode.body,
    meta,
  });
  return { ...episode, metaJson, hash, salience: salience(meta) };
}

/**
 * How soon review should look at what an episode proposes: the summed size of its negative goal
 * errors (distill's appraisal), so a session that went badly is reviewed first.
 */
function salience(meta: { readonly [key: string]: JsonValue }): number {
  const errors = meta.goal_errors;
  if (!Array.isArray(errors)) return 0;
  let sum = 0;
  for (const error of errors) {
    if (error === null || typeof error !== 'object' || Array.isArray(error)) continue;
    const sign = (error as { readonly [key: string]: JsonValue }).sign;
    if (typeof sign === 'number' && sign < 0) sum += Math.min(-sign, 1);
  }
  return Math.round(sum * 1000) / 1000;
}

function draftCandidates(
  graph: GraphDatabase,
  episode: PreparedEpisode,
): { drafts: FactDraft[]; ignored: number } {
  const proposed = graph.extractor.extract(episode);
  const drafts = new Map<string, FactDraft>();
  let ignored = 0;
  for (const candidate of proposed) {
    const draft = draftFact(
      candidate.kind === 'entity' ? 'entity' : 'relation',
      String(candidate.subject),
      String(candidate.predicate),
      String(candidate.object),
      graphLimits.factPartCharacters,
    );
    if (
      draft === undefined ||
      drafts.has(draft.key) ||
      drafts.size >= graphLimits.candidatesPerEpisode
    ) {
      ignored += 1;
      continue;
    }
    drafts.set(draft.key, draft);
  }
  return { drafts: [...drafts.values()], ignored };
}

const metaCorrections = z.array(correctionItemSchema).max(graphLimits.correctionsPerCall);

/**
 * Stores one episode keyed on (source, source_id) in one write transaction: unchanged content
 * (by hash) returns before any other work; otherwise candidates are staged or supported, support
 * the old version alone gave is dropped, and staged facts left with none are retracted.
 */
export async function upsertEpisode(
  backend: GraphBackend,
  input: EpisodeInput,
): Promise<UpsertResult> {
  const episode = prepareEpisode(input);
  return backend.write(async (graph) => {
    const now = graph.now();
    const existing = await graph.get<{
      id: number;
      content_hash: string;
      version: number;
      redacted_at: string | null;
    }>(
      'SELECT id, content_hash, version, redacted_at FROM episodes WHERE source = ? AND source_id = ?',
      episode.source,
      episode.source_id,
    );
    if (existing?.redacted_at != null) {
      throw new GraphInputError(
        `the episode (${episode.source}, ${episode.source_id}) was redacted at ${existing.redacted_at} and its key is not reused: nothing was stored`,
      );
    }
    if (existing !== undefined && existing.content_hash === episode.hash) {
      return {
        outcome: 'unchanged',
        episode_id: existing.id,
        version: existing.version,
        content_hash: episode.hash,
        facts: noFacts,
        corrections: null,
        corrections_withheld: 0,
      };
    }
    await ensureSource(graph, episode.source, now);
    let episodeId: number;
    let version: number;
    if (existing === undefined) {
      const inserted = await graph.get<{ id: number }>(
        `INSERT INTO episodes (kind, source, source_id, source_ref, occurred_at, body, meta, content_hash, salience, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        episode.kind,
        episode.source,
        episode.source_id,
        episode.source_ref,
        episode.occurred_at,
        episode.body,
        episode.metaJson,
        episode.hash,
        episode.salience,
        now,
        now,
      );
      episodeId = Number(inserted?.id);
      version = 1;
    } else {
      episodeId = existing.id;
      version = existing.version + 1;
      await graph.run(
        `UPDATE episodes SET kind = ?, source_ref = ?, occurred_at = ?, body = ?, meta = ?, content_hash = ?,
             salience = ?, version = ?, updated_at = ? WHERE id = ?`,
        episode.kind,
        episode.source_ref,
        episode.occurred_at,
        episode.body,
        episode.metaJson,
        episode.hash,
        episode.salience,
        version,
        now,
        episodeId,
      );
    }
    const facts = await stageCandidates(graph, episode, episodeId, now);
    const { report, withheld } = await correctionsFromMeta(graph, episode, now);
    return {
      outcome: existing === undefined ? 'inserted' : 'updated',
      episode_id: episodeId,
      version,
      content_hash: episode.hash,
      facts,
      corrections: report,
      corrections_withheld: withheld,
    };
  });
}

async function stageCandidates(
  graph: GraphDatabase,
  episode: PreparedEpisode,
  episodeId: number,
  now: string,
): Promise<UpsertFactCounts> {
  const { drafts, ignored } = draftCandidates(graph, episode);
  const before = await graph.all<{ fact_id: number; fact_key: string; status: FactStatus }>(
    `SELECT s.fact_id AS fact_id, f.fact_key AS fact_key, f.status AS status FROM support s
     JOIN facts f ON f.id = s.fact_id WHERE s.episode_id = ? AND s.via = 'extractor'`,
    episodeId,
  );
  const wanted = new Set(drafts.map((draft) => draft.key));
  const had = new Set(before.map((row) => row.fact_key));
  let staged = 0;
  let supported = 0;
  let kept = 0;
  let blocked = 0;
  let retracted = 0;
  for (const draft of drafts) {
    if (had.has(draft.key)) {
      kept += 1;
    } else if (await isDenied(graph, draft)) {
      blocked += 1;
    } else {
      const open = await findOpenFact(graph, draft.key);
      const factId =
        open?.id ??
        (await insertStagedFact(graph, draft, 'extractor', episode.occurred_at, null, now));
      await addSupport(graph, factId, { episodeId }, 'extractor', now);
      if (open === undefined) staged += 1;
      else supported += 1;
    }
  }
  for (const row of before) {
    if (wanted.has(row.fact_key)) continue;
    await graph.run(
      `DELETE FROM support WHERE fact_id = ? AND episode_id = ? AND via = 'extractor'`,
      row.fact_id,
      episodeId,
    );
    if (row.status === 'staged' && (await supportCount(graph, row.fact_id)) === 0) {
      await closeFact(
        graph,
        row.fact_id,
        'retracted',
        'its last supporting episode no longer proposes it',
        now,
        now,
      );
      retracted += 1;
    }
  }
  return { staged, supported, kept, blocked_by_denial: blocked, retracted, ignored };
}

async function correctionsFromMeta(
  graph: GraphDatabase,
  episode: PreparedEpisode,
  now: string,
): Promise<{ report: CorrectionReport | null; withheld: number }> {
  const raw = episode.meta.corrections;
  if (!Array.isArray(raw) || raw.length === 0) return { report: null, withheld: 0 };
  // A correction closes a belief with nobody in the loop, so it is acted on only from a session
  // whose whole timeline is known clean; distill withholds them too, this is the second lock.
  if (metaTaint(episode.meta) !== 'clean') return { report: null, withheld: raw.length };
  const items = parseInput(metaCorrections, raw, 'meta.corrections');
  const report = await applyCorrections(
    graph,
    { source: episode.source, source_id: episode.source_id, occurred_at: episode.occurred_at },
    items,
    now,
  );
  return { report, withheld: 0 };
}
