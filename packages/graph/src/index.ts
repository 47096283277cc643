export type { CorrectionReport } from './apply-corrections.js';
export type { JsonValue } from './content-hash.js';
export { contentHash } from './content-hash.js';
export type { GraphRole, GraphServerOptions } from './create-graph-server.js';
export { createGraphServer } from './create-graph-server.js';
export type { DecisionResult, ResolutionResult } from './decide-review.js';
export { episodeExtractor } from './episode-extractor.js';
export type { Taint } from './episode-taint.js';
export type { Extractor } from './metadata-extractor.js';
export { metadataExtractor } from './metadata-extractor.js';
export type { GraphStore, GraphStoreOptions } from './open-graph-store.js';
export { openGraphStore } from './open-graph-store.js';
export type {
  CorrectionItem,
  EpisodeDetail,
  EpisodeItem,
  FactDetail,
  FactItem,
  ReviewFactItem,
} from './read-graph/items.js';
export type { Page } from './read-graph/page.js';
export type { RedactionReport } from './redact-source.js';
export type {
  CorrectInput,
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
export type { UpsertResult } from './upsert-episode.js';
