// The public surface of @mecha/appraisal-core, frozen by api/appraisal-core.api.md (see
// README, "The public surface"). Add a name only when another package or a surface needs it.

// The ports a harness implements, and the per-session evidence built from them.
export type {
  AppraisalPorts,
  BoardPort,
  CharterPort,
  ClosuresPort,
  CurationTarget,
  LearningPort,
  OutboxPort,
  OwnerOutcomesPort,
  PortRead,
  PredictionsPort,
  QuestionsPort,
  RequestsPort,
  SessionListing,
  SessionsPort,
  SessionVisitor,
  WorkflowsPort,
} from './ports/appraisal-ports.js';
export type {
  ArmOutcome,
  Replayer,
  ReplayMomentKind,
  ReplayPolicy,
  ReplayPrompt,
  ReplayRequest,
} from './ports/replayer.js';
export { armOutcomeSchema } from './ports/replayer.js';
export type { ReplayScriptEntry, ScriptedReplayer } from './ports/scripted-replayer.js';
export { createScriptedReplayer, replayScriptEntrySchema } from './ports/scripted-replayer.js';
export type { SessionEvidence } from './ports/session-evidence.js';
export type { SessionStores } from './ports/session-stores.js';
export type { SessionStoreIndex } from './ports/store-index.js';
export { indexSessionStores, readSessionStores } from './ports/store-index.js';
export { projectTranscript, scanByListing } from './ports/transcript-cache.js';
export type { AppraisalChip } from './readouts/appraisal-chip.js';
export { appraisalChip } from './readouts/appraisal-chip.js';
// Entry points: the readouts a harness or a surface calls.
export type { CorpusOptions } from './readouts/appraise-corpus.js';
export { appraiseCorpus } from './readouts/appraise-corpus.js';
export type { RunAppraisal } from './readouts/appraise-run.js';
export { appraiseRun } from './readouts/appraise-run.js';
export type {
  CounterfactualLookup,
  SessionAppraisal,
  TextAppraisalLookup,
} from './readouts/appraise-session.js';
export { appraiseSession } from './readouts/appraise-session.js';
export type { StepAppraisal } from './readouts/appraise-step.js';
export { appraiseStep } from './readouts/appraise-step.js';
export type { ClosureAppraisal, ClosureMove } from './readouts/closure-appraisal.js';
export { appraiseClosure } from './readouts/closure-appraisal.js';
export type { CompareOptions, CompareOutcome } from './readouts/compare-moment.js';
export { compareMoment, comparePolicies } from './readouts/compare-moment.js';
export type {
  DiagnosticAppraisal,
  DiagnosticAppraisals,
  DiagnosticBrief,
  DiagnosticBriefRequest,
  DiagnosticPart,
  DiagnosticSensors,
} from './readouts/diagnostic-brief.js';
export { diagnosticBrief } from './readouts/diagnostic-brief.js';
export type { LabelReason } from './readouts/explain-label.js';
export { entryText, explainLabel } from './readouts/explain-label.js';
export type { ValenceSums } from './readouts/format-valence.js';
export { formatValence } from './readouts/format-valence.js';
export type {
  BriefFieldState,
  BriefHealth,
  CounterHealth,
  HealthReadout,
} from './readouts/health.js';
export { health } from './readouts/health.js';
export { citeText, formatSign, goalText, outcomeText } from './readouts/pointer-text.js';
export type { ProbeOptions, ProbeRun } from './readouts/probe-corpus.js';
export { probeCorpus } from './readouts/probe-corpus.js';
export type { ProjectAppraisal, ProjectUnconfidentReason } from './readouts/project-appraisal.js';
export { appraiseProject } from './readouts/project-appraisal.js';
export type { SessionReading } from './readouts/read-session.js';
export { readSession } from './readouts/read-session.js';
export type { ReplayCandidateRow, ReplayCandidatesReadout } from './readouts/replay-candidates.js';
export { replayCandidates } from './readouts/replay-candidates.js';
export type { SessionList, SessionRow } from './readouts/session-list.js';
export { kindsOnRecord, listSessions } from './readouts/session-list.js';
export type { BadgeEvent, StatusBadge } from './readouts/status-badge.js';
export { badgeAfter, statusBadge } from './readouts/status-badge.js';
export type {
  CorrectionSituation,
  LendsNoneReason,
  PlanningExample,
  PlanningSituation,
} from './readouts/successes/planning-examples.js';
export {
  contrastFor,
  examplesFor,
  verifiedByText,
} from './readouts/successes/planning-examples.js';
export type {
  Success,
  SuccessCite,
  SuccessKind,
  SuccessStatus,
  SuccessUnknownReason,
} from './readouts/successes/success.js';
export type {
  SuccessesOptions,
  SuccessesReadout,
  SuccessSource,
} from './readouts/successes/successes.js';
export { successes } from './readouts/successes/successes.js';
export type { WritingExemplar } from './readouts/successes/writing-exemplars.js';
// The rules: the contribution table, signed entries, the label and the valence.
export type { ClaudeToolOutcome } from './rules/claude-code-rules.js';
export {
  claudeOutcomeRecord,
  claudeResultStopCause,
  claudeToolOutcome,
  claudeToolTarget,
} from './rules/claude-code-rules.js';
export type { ContributionRowId } from './rules/contribution-table.js';
export { contributionTable } from './rules/contribution-table.js';
export type { Contributions, SignedEntries } from './rules/contributions.js';
export { contributions, signedEntries } from './rules/contributions.js';
export type { Dereference } from './rules/counterfactual-reflection.js';
export { pendingReflections } from './rules/counterfactual-reflection.js';
export type { DecidedMoment, Refused } from './rules/decided-moments.js';
export type { LabelFacts, LabelRule, LabelRuleId, OwnerOutcomeFact } from './rules/derive-label.js';
export { deriveLabel, labelRules } from './rules/derive-label.js';
export type {
  ExpectationContext,
  ExpectationScore,
  ExpectationUnknownReason,
  OwnerAct,
} from './rules/expectations.js';
export { scoreExpectation } from './rules/expectations.js';
export type { FollowUp } from './rules/follow-up.js';
export { labelFactsFor } from './rules/label-facts-for.js';
export type {
  ActSources,
  DraftAct,
  QuestionAct,
  RecordedAct,
  TaskClosingAct,
  TaskReopenAct,
  WorkflowAct,
} from './rules/owner-acts.js';
export { recordedActs } from './rules/owner-acts.js';
export type { Population } from './rules/population.js';
export { selectPopulation, wantedBy } from './rules/population.js';
export type { PopulationOptions } from './rules/population-options.js';
export type { RankedReplayCandidate, ReplayCandidate } from './rules/rank-replay-candidates.js';
export { rankReplayCandidates } from './rules/rank-replay-candidates.js';
export { reachability, reachabilityLine } from './rules/reachability.js';
export { appraisedEventTypes } from './rules/read-transcript.js';
export type { RecordedRowId, SignedEntry, SignedRowId } from './rules/signed-entry.js';
export type { Valence } from './rules/valence.js';
export { sumValence, valence } from './rules/valence.js';

// The record schemas of every store the appraisal reads.
export type { BoardRecord, BoardTask, TaskStatus } from './schemas/board.js';
export { boardRecordSchema, taskStatusSchema } from './schemas/board.js';
export type { ClosureRecord } from './schemas/closures.js';
export { closureRecordSchema } from './schemas/closures.js';
export type {
  ComparisonPoint,
  ComparisonRecord,
  ComparisonValidator,
  CounterfactualRecord,
} from './schemas/comparisons.js';
export { comparisonRecordSchema, counterfactualRecordSchema } from './schemas/comparisons.js';
export type {
  BriefFieldRecord,
  CharterReadingRecord,
  CharterReadingState,
  CommitmentRecord,
  ConditionsSnapshot,
  SituationBriefRecord,
  StoreFlowRecord,
} from './schemas/conditions.js';
export { conditionsSnapshotSchema, situationBriefSchema } from './schemas/conditions.js';
export type { CorpusAppraisal, ProbeReadout } from './schemas/corpus-appraisal.js';
export { corpusAppraisalSchema } from './schemas/corpus-appraisal.js';
export type { ExpectationScoreRecord } from './schemas/expectation-scores.js';
export { expectationScoreRecordSchema } from './schemas/expectation-scores.js';
export type { Agency, Channel, Cite, GoalError, GoalRef, Label } from './schemas/goal-error.js';
export { goalRefSchema, labelSchema } from './schemas/goal-error.js';
export type {
  CurationRecord,
  ExpectedAct,
  GoalJudgment,
  GoalOutcome,
  OwnerOutcomeRecord,
  ReflectionRecord,
  TextAppraisalRecord,
} from './schemas/learning.js';
export {
  curationRecordSchema,
  expectedActSchema,
  goalOutcomeSchema,
  ownerOutcomeRecordSchema,
  reflectionRecordSchema,
  textAppraisalRecordSchema,
} from './schemas/learning.js';
export type { OutboxRecord } from './schemas/outbox.js';
export { draftOutcomeSchema, draftStagedSchema, outboxRecordSchema } from './schemas/outbox.js';
export type { PredictionRecord } from './schemas/predictions.js';
export { predictionRecordSchema } from './schemas/predictions.js';
export type { Actor, Taint } from './schemas/primitives.js';
export { idSchema, timestampSchema } from './schemas/primitives.js';
export type { QuestionRecord } from './schemas/questions.js';
export { questionRecordSchema } from './schemas/questions.js';
export { recordSchemas } from './schemas/record-schemas.js';
export type { RequestRecord } from './schemas/requests.js';
export { requestRecordSchema } from './schemas/requests.js';
export type { SkippedLine, SourceRead } from './schemas/source-read.js';
export type {
  EventSource,
  SessionKind,
  StopCause,
  Surface,
  TranscriptEvent,
} from './schemas/transcript.js';
export {
  compactionEventSchema,
  counterEventSchema,
  currentTranscriptEventSchemas,
  eventSourceSchema,
  interventionEventSchema,
  messageEventSchema,
  runStartEventSchema,
  stepCheckEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  transcriptEventSchema,
} from './schemas/transcript.js';
export type { WorkflowRecord } from './schemas/workflows.js';
export { workflowRecordSchema } from './schemas/workflows.js';

// Text hygiene for anything a surface prints.
export { eventSourceText } from './support/event-source-text.js';
export { stripControl, stripControlDeep, stripControlLines } from './support/strip-control.js';
