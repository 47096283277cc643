export type { BoundedTranscript, TranscriptBounds } from './bound-transcript.js';
export { boundTranscript } from './bound-transcript.js';
export type { Episode, EpisodeGoalError, EpisodeMeta } from './build-episode.js';
export { episodeSource } from './build-episode.js';
export type { ClassifyOptions } from './classify-session.js';
export { defaultClassifyOptions } from './classify-session.js';
export { distill } from './distill/distill.js';
export type { DistillOptions, ModelSource } from './distill/distill-options.js';
export type {
  DistillProgress,
  DistillRefusal,
  DistillReport,
  DistillResult,
  DistillStop,
  PrintedSurprise,
} from './distill/distill-report.js';
export type { NightlyResult } from './distill/nightly.js';
export { distillOnSessionEnd, nightly, nightlyLockFile } from './distill/nightly.js';
export type { ScoringReport } from './distill/score-predictions.js';
export { scorePredictions } from './distill/score-predictions.js';
export type { SessionOutcome, SessionResult } from './distill/session-outcome.js';
export type { DistillBounds } from './distill-grammar.js';
export { defaultDistillBounds, distillGrammar } from './distill-grammar.js';
export type {
  DistillReply,
  ParsedReply,
  ReportedCorrection,
  ReportedSurprise,
} from './distill-reply.js';
export { parseDistillReply } from './distill-reply.js';
export type {
  EntityType,
  EpisodeEntity,
  EpisodeRelation,
  FactBounds,
  FactDropReason,
  GroundedFacts,
} from './extract-facts.js';
export { defaultFactBounds, factsGrammarSchema, groundFacts } from './extract-facts.js';
export { formatDistillReport } from './format-distill-report.js';
export type {
  ConnectOptions,
  CorrectionCounts,
  GraphCall,
  GraphConnection,
  GraphRefusal,
  UpsertReply,
} from './graph-client.js';
export { connectGraph } from './graph-client.js';
export type {
  GraphOwnerDone,
  GraphOwnerOptions,
  GraphOwnerRefusal,
  GraphOwnerRequest,
  GraphOwnerResult,
  GraphOwnerSession,
} from './graph-owner.js';
export { actOnGraph, openGraphOwner } from './graph-owner.js';
export type { GraphServerWrite, McpCapabilities } from './graph-server.js';
export {
  defaultGraphServer,
  effectiveCapabilities,
  mcpServerToml,
  writeDefaultGraphServer,
} from './graph-server.js';
export type { GraphEnvironment } from './graph-transport.js';
export type { ClaimDropReason } from './ground-claims.js';
export type { SentCorrection } from './ground-corrections.js';
export type { Correction, CorrectionKind } from './reflect/corrections.js';
export { formatReflectReport } from './reflect/format-reflect-report.js';
export type {
  LessonDrop,
  LessonEdit,
  LessonOnRecord,
  LessonRefusal,
  LessonsRead,
} from './reflect/lessons.js';
export { dropLesson, editLesson, lessonsOnRecord } from './reflect/lessons.js';
export type {
  ContrastShown,
  CorrectionOutcome,
  DeclineOnRecord,
  ReflectedCorrection,
  ReflectOptions,
  ReflectReport,
  ReflectResult,
  ReflectStep,
} from './reflect/reflect.js';
export { reflect, reflectLockFile } from './reflect/reflect.js';
export { emptyReviewQueueHint } from './review-queue-hint.js';
export type { EpisodeTaint } from './session-taint.js';
export { sessionTaint } from './session-taint.js';
export type { AppraisalBounds } from './text-appraisal.js';
export { defaultAppraisalBounds } from './text-appraisal.js';
