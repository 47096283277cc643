export type { AppraisalLimits, LimitProblem } from './appraisal-limits.js';
export {
  appraisalLimitRanges,
  callsPerSource,
  defaultAppraisalLimits,
  validateAppraisalLimits,
} from './appraisal-limits.js';
export type { ServeControl, ServeResult } from './appraiser.js';
export { openAppraiser, serveAppraiser } from './appraiser.js';
export { AppraiserInputError } from './appraiser-error.js';
export type { AppraiserStatusRead } from './appraiser-status-at.js';
export { appraiserStatusAt } from './appraiser-status-at.js';
export type {
  AppraisalConfiguration,
  Appraiser,
  AppraiserOptions,
  AppraiserStatus,
  ControlRecord,
  ControlResult,
  LeaseResult,
  QueueState,
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
  StoredAssessment,
  StoredRelationship,
} from './appraiser-types.js';
export { correctionContextLimit, sharedLeaseRevision } from './appraiser-types.js';
export type { AppraisalPolicy, FlagSet } from './controls.js';
export { appraisalFlags } from './controls.js';
export { isExplicitPromise } from './explicit-promise.js';
export type { Interpretation, InterpretationField } from './interpretation.js';
export {
  interpretationFields,
  scaleMax,
  unknownValue,
  unsupportedInterpretation,
} from './interpretation.js';
export type { InterpretationContext } from './interpretation-grammar.js';
export { buildInterpretationGrammar } from './interpretation-grammar.js';
export type { KvReservation, KvReserved, ReservableModel } from './kv-reservation.js';
export { kvPageTokens, reservedTokens, reserveKvPages } from './kv-reservation.js';
export type { InterpretationCheck } from './parse-interpretation.js';
export { parseInterpretation, parserVersion } from './parse-interpretation.js';
export { parseQuotes } from './parse-quotes.js';
export { currentProcessor, previousProcessor, processorDigest } from './processor.js';
export { buildQuoteGrammar, maxQuotes } from './quote-grammar.js';
export type { ContextGroup, ContextRevision, RenderedContext } from './render-context.js';
export {
  contextRevisions,
  maxContextBytes,
  maxContextReferences,
  renderContext,
} from './render-context.js';
