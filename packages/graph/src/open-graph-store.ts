import { applyCorrections, type CorrectionReport } from './apply-corrections.js';
import {
  type DecisionResult,
  decideReview,
  type ResolutionResult,
  resolveCorrection,
} from './decide-review.js';
import { episodeExtractor } from './episode-extractor.js';
import type { GraphBackend, GraphDialect } from './graph-database.js';
import { graphLimits } from './limits.js';
import type { Extractor } from './metadata-extractor.js';
import { parseInput } from './parse-input.js';
import { isPostgresUrl, openPostgresBackend } from './postgres-backend.js';
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
import { openSqliteBackend } from './sqlite-backend.js';
import { type UpsertResult, upsertEpisode } from './upsert-episode.js';

/** Where the store keeps the graph and how it extracts candidates. */
export interface GraphStoreOptions {
  /**
   * The SQLite file (its folder is created; several processes may open the same file), or a
   * `postgres://` / `postgresql://` connection URL for a team's PostgreSQL database.
   */
  readonly path: string;
  /** Turns episodes into candidate facts (default: episodeExtractor, the metadata and the prose). */
  readonly extractor?: Extractor;
  /** How long a write waits for another writer's lock (default graphLimits.busyTimeoutMs). */
  readonly busyTimeoutMs?: number;
  /** The time source for every timestamp the store writes (default: the system clock). */
  readonly clock?: () => Date;
}

/**
 * The knowledge graph over one SQLite file or one PostgreSQL database: the operations behind
 * every MCP tool, callable in-process, the same on both engines. Each write is one transaction;
 * invalid input rejects with GraphInputError.
 */
export interface GraphStore {
  /** The file path or connection URL it was opened with. */
  readonly path: string;
  /** Which engine holds the graph. */
  readonly engine: GraphDialect;
  /** Where the graph lives, fit to print (a URL's password is masked). */
  readonly location: string;
  /** Stores an episode keyed on (source, source_id): inserted, updated or unchanged. */
  upsert(episode: EpisodeInput): Promise<UpsertResult>;
  /** Applies corrections; counts of applied, denied, to_review and duplicate come back. */
  correct(request: CorrectInput): Promise<CorrectionReport>;
  /** Facts, current ones by default, with what was suppressed counted. */
  search(query?: SearchInput): Promise<Page<FactItem>>;
  /** One fact or episode with its provenance. */
  get(query: GetInput): Promise<FactDetail | EpisodeDetail>;
  /** Episodes, newest first. */
  episodes(query?: EpisodesInput): Promise<Page<EpisodeItem>>;
  /** The review queue of staged facts or unmatched corrections. */
  reviewList(query?: ReviewListInput): Promise<Page<ReviewFactItem> | Page<CorrectionItem>>;
  /** Person-only: accept or reject a staged fact. */
  decide(decision: DecideInput): Promise<DecisionResult>;
  /** Person-only: apply a waiting correction to a named belief, or dismiss it. */
  resolveCorrection(resolution: ResolveCorrectionInput): Promise<ResolutionResult>;
  /** Person-only: take a source set out. */
  redact(request: RedactInput): Promise<RedactionReport>;
  close(): Promise<void>;
}

/** Runs `work` so that a synchronous throw (bad input) becomes a rejection too. */
function attempt<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Opens the graph, bringing its schema to this build's version first. A path opens (creating if
 * need be) a SQLite file in WAL mode with a busy timeout, so a server and other writers can
 * share it; a `postgres://` URL connects a pool to that database. Cheap: no work beyond
 * connecting and checking the schema.
 */
export async function openGraphStore(options: GraphStoreOptions): Promise<GraphStore> {
  const busyTimeoutMs = options.busyTimeoutMs ?? graphLimits.busyTimeoutMs;
  const extractor = options.extractor ?? episodeExtractor;
  const clock = options.clock ?? (() => new Date());
  const backend: GraphBackend = isPostgresUrl(options.path)
    ? await openPostgresBackend({ url: options.path, extractor, busyTimeoutMs, clock })
    : openSqliteBackend({ path: options.path, extractor, busyTimeoutMs, clock });
  return {
    path: options.path,
    engine: backend.dialect,
    location: backend.location,
    upsert: (episode) => attempt(() => upsertEpisode(backend, episode)),
    correct: (request) =>
      attempt(() => {
        const parsed = parseInput(correctSchema, request, 'kg_correct request');
        return backend.write((graph) =>
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
      }),
    search: (query = {}) => attempt(() => searchFacts(backend, query)),
    get: (query) => attempt(() => getItem(backend, query)),
    episodes: (query = {}) => attempt(() => listEpisodes(backend, query)),
    reviewList: (query = {}) => attempt(() => listReview(backend, query)),
    decide: (decision) => attempt(() => decideReview(backend, decision)),
    resolveCorrection: (resolution) => attempt(() => resolveCorrection(backend, resolution)),
    redact: (request) => attempt(() => redactSource(backend, request)),
    close: () => backend.close(),
  };
}
