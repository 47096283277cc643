import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { applyCorrections, type CorrectionReport } from './apply-corrections.js';
import {
  type DecisionResult,
  decideReview,
  type ResolutionResult,
  resolveCorrection,
} from './decide-review.js';
import { episodeExtractor } from './episode-extractor.js';
import { graphDatabase, writeTransaction } from './graph-database.js';
import { graphLimits } from './limits.js';
import type { Extractor } from './metadata-extractor.js';
import { migrate } from './migrate.js';
import { parseInput } from './parse-input.js';
import { getItem } from './read-graph/get-item.js';
import type {
  CorrectionItem,
  EpisodeDetail,
  EpisodeItem,
  FactDetail,
  FactItem,
  ReviewFactItem,
} from './read-graph/items.js';
import { listEpisodes } from './read-graph/list-episodes.js';
import { listReview } from './read-graph/list-review.js';
import type { Page } from './read-graph/page.js';
import { searchFacts } from './read-graph/search-facts.js';
import { type RedactionReport, redactSource } from './redact-source.js';
import {
  type CorrectInput,
  correctSchema,
  type DecideInput,
  type EpisodeInput,
  type EpisodesInput,
  type GetInput,
  type RedactInput,
  type ResolveCorrectionInput,
  type ReviewListInput,
  type SearchInput,
} from './schemas.js';
import { type UpsertResult, upsertEpisode } from './upsert-episode.js';

/** Where the store keeps its file and how it extracts candidates. */
export interface GraphStoreOptions {
  /** The SQLite file; its folder is created. Several processes may open the same file. */
  readonly path: string;
  /** Turns episodes into candidate facts (default: episodeExtractor, the metadata and the prose). */
  readonly extractor?: Extractor;
  /** How long a write waits for another process's lock (default graphLimits.busyTimeoutMs). */
  readonly busyTimeoutMs?: number;
  /** The time source for every timestamp the store writes (default: the system clock). */
  readonly clock?: () => Date;
}

/**
 * The knowledge graph over one SQLite file: the operations behind every MCP tool, callable
 * in-process. Each write is one transaction; invalid input throws GraphInputError.
 */
export interface GraphStore {
  readonly path: string;
  /** Stores an episode keyed on (source, source_id): inserted, updated or unchanged. */
  upsert(episode: EpisodeInput): UpsertResult;
  /** Applies corrections; counts of applied, denied, to_review and duplicate come back. */
  correct(request: CorrectInput): CorrectionReport;
  /** Facts, current ones by default, with what was suppressed counted. */
  search(query?: SearchInput): Page<FactItem>;
  /** One fact or episode with its provenance. */
  get(query: GetInput): FactDetail | EpisodeDetail;
  /** Episodes, newest first. */
  episodes(query?: EpisodesInput): Page<EpisodeItem>;
  /** The review queue of staged facts or unmatched corrections. */
  reviewList(query?: ReviewListInput): Page<ReviewFactItem> | Page<CorrectionItem>;
  /** Person-only: accept or reject a staged fact. */
  decide(decision: DecideInput): DecisionResult;
  /** Person-only: apply a waiting correction to a named belief, or dismiss it. */
  resolveCorrection(resolution: ResolveCorrectionInput): ResolutionResult;
  /** Person-only: take a source set out. */
  redact(request: RedactInput): RedactionReport;
  close(): void;
}

/**
 * Opens (creating if need be) the graph file in WAL mode with a busy timeout, so a server and
 * other writers can share it. Cheap: no work beyond opening the file and checking the schema.
 */
export function openGraphStore(options: GraphStoreOptions): GraphStore {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const busyTimeoutMs = options.busyTimeoutMs ?? graphLimits.busyTimeoutMs;
  const db = new Database(options.path, { timeout: busyTimeoutMs });
  try {
    migrate(db, busyTimeoutMs);
  } catch (error) {
    db.close();
    throw error;
  }
  const graph = graphDatabase(
    db,
    options.extractor ?? episodeExtractor,
    options.clock ?? (() => new Date()),
  );
  return {
    path: options.path,
    upsert: (episode) => upsertEpisode(graph, episode),
    correct(request) {
      const parsed = parseInput(correctSchema, request, 'kg_correct request');
      return writeTransaction(graph, () =>
        applyCorrections(
          graph,
          {
            source: parsed.source,
            source_id: parsed.source_id ?? null,
            occurred_at: parsed.occurred_at ?? null,
          },
          parsed.corrections,
          graph.now(),
        ),
      );
    },
    search: (query = {}) => searchFacts(graph, query),
    get: (query) => getItem(graph, query),
    episodes: (query = {}) => listEpisodes(graph, query),
    reviewList: (query = {}) => listReview(graph, query),
    decide: (decision) => decideReview(graph, decision),
    resolveCorrection: (resolution) => resolveCorrection(graph, resolution),
    redact: (request) => redactSource(graph, request),
    close: () => db.close(),
  };
}
