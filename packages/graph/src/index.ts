export type {
  CorrectionOutcome,
  CorrectionReport,
  CorrectionResult,
  ReviewReason,
} from './apply-corrections.js';
export type { JsonValue } from './content-hash.js';
export { contentHash } from './content-hash.js';
export type { GraphRole, GraphServerOptions } from './create-graph-server.js';
export { createGraphServer, graphTools } from './create-graph-server.js';
export { defaultDatabasePath, resolveDatabasePath } from './database-path.js';
export type { DecisionResult, ResolutionResult } from './decide-review.js';
export { episodeExtractor, plainTextExtractor } from './episode-extractor.js';
export type { Taint } from './episode-taint.js';
export type { FactStatus } from './fact-rows.js';
export { GraphInputError } from './graph-input-error.js';
export { graphLimits } from './limits.js';
export type { CandidateFact, Extractor, ExtractorEpisode } from './metadata-extractor.js';
export { metadataExtractor } from './metadata-extractor.js';
export type { GraphStore, GraphStoreOptions } from './open-graph-store.js';
export { openGraphStore } from './open-graph-store.js';
export type {
  CorrectionItem,
  EpisodeDetail,
  EpisodeItem,
  FactDetail,
  FactItem,
  FactProvenance,
  ReviewFactItem,
  SourceTrust,
} from './read-graph/items.js';
export type { Page, Suppressed } from './read-graph/page.js';
export type { RedactionReport } from './redact-source.js';
export type {
  CorrectInput,
  CorrectionRequest,
  DecideInput,
  EpisodeInput,
  EpisodesInput,
  GetInput,
  RedactInput,
  ResolveCorrectionInput,
  ReviewListInput,
  SearchInput,
} from './schemas.js';
export { snapshotGraphFile } from './snapshot-graph-file.js';
export type { UpsertFactCounts, UpsertResult } from './upsert-episode.js';
