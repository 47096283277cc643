// The public surface: what a harness author or another package uses (the CLI's `mecha
// appraiser`, the bench). The grammars' parsers, the processor identity and the recall
// renderer stay inside; docs/appraiser.md describes them.
export type { AppraisalLimits, LimitProblem } from './appraisal-limits.js';
export { appraisalLimitRanges } from './appraisal-limits.js';
export { openAppraiser, serveAppraiser } from './appraiser.js';
export { AppraiserInputError } from './appraiser-error.js';
export type { AppraiserStatusRead } from './appraiser-status-at.js';
export { appraiserStatusAt } from './appraiser-status-at.js';
export type {
  AppraisalConfiguration,
  Appraiser,
  AppraiserOptions,
  AppraiserStatus,
  ControlPending,
  ControlRecord,
  ControlRefusal,
  ControlResult,
  FlagSwitches,
  LeaseRefusal,
  LeaseResult,
  QueueState,
  RecalledContext,
  RecallRefusal,
  RecallRequest,
  RecallResult,
  RetainResult,
  RetainSourceInput,
  RetryItem,
  RunItem,
  RunOptions,
  RunReport,
  RunRequestState,
  RunState,
  SharedLease,
  StoredAssessment,
  StoredRelationship,
} from './appraiser-types.js';
export type { AppraisalPolicy, FlagSet } from './controls.js';
export type { Interpretation } from './interpretation.js';
export { unsupportedInterpretation } from './interpretation.js';
export type { InterpretationContext } from './interpretation-grammar.js';
export { buildInterpretationGrammar } from './interpretation-grammar.js';
export type { KvReservation, KvReserved, ReservableModel } from './kv-reservation.js';
export { reservedTokens, reserveKvPages } from './kv-reservation.js';
export { buildQuoteGrammar } from './quote-grammar.js';
export type { ContextRevision, RenderedContext } from './render-context.js';
export type { ServeControl, ServeResult } from './serve.js';
export type { Embedder, SimilarityMethod } from './similarity.js';
