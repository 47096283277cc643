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
export type { SessionEvidence } from './ports/session-evidence.js';
export type { SessionStores } from './ports/session-stores.js';
export type { SessionStoreIndex } from './ports/store-index.js';
export { indexSessionStores, readSessionStores } from './ports/store-index.js';
export type { TranscriptReader } from './ports/transcript-cache.js';
export {
  projectTranscript,
  readTranscripts,
  scanByListing,
  transcriptCache,
} from './ports/transcript-cache.js';
export type { CorpusOptions } from './readouts/appraise-corpus.js';
export { appraiseCorpus } from './readouts/appraise-corpus.js';
export type { RunAppraisal } from './readouts/appraise-run.js';
export { appraiseRun } from './readouts/appraise-run.js';
export type { SessionAppraisal, TextAppraisalLookup } from './readouts/appraise-session.js';
export { appraiseSession } from './readouts/appraise-session.js';
export type { ClosureAppraisal, ClosureMove } from './readouts/closure-appraisal.js';
export { appraiseClosure, closureAppraisal } from './readouts/closure-appraisal.js';
export type { ClosureTally, UnreadableClosureReason } from './readouts/closure-line.js';
export { closureLine, tallySignals, unreadableClosureLine } from './readouts/closure-line.js';
export type { ValenceSums } from './readouts/format-valence.js';
export { formatValence } from './readouts/format-valence.js';
export type {
  BriefFieldState,
  BriefHealth,
  CounterHealth,
  HealthReadout,
} from './readouts/health.js';
export { briefFields, health, healthCounters } from './readouts/health.js';
export type {
  ProjectAppraisal,
  ProjectEvidence,
  ProjectUnconfidentReason,
} from './readouts/project-appraisal.js';
export {
  appraiseProject,
  projectAppraisal,
  projectSessions,
} from './readouts/project-appraisal.js';
export type { SessionReading } from './readouts/read-session.js';
export { readSession } from './readouts/read-session.js';
export type {
  LendsNoneReason,
  PlanningExample,
  PlanningSituation,
} from './readouts/successes/planning-examples.js';
export { examplesFor, formatCallTrace } from './readouts/successes/planning-examples.js';
export type {
  Success,
  SuccessCite,
  SuccessKind,
  SuccessStatus,
  SuccessUnknownReason,
} from './readouts/successes/success.js';
export { successKinds } from './readouts/successes/success.js';
export type {
  SuccessesOptions,
  SuccessesReadout,
  SuccessSource,
  SuccessSources,
} from './readouts/successes/successes.js';
export { collectSuccesses, successes } from './readouts/successes/successes.js';
export type { WritingExemplar } from './readouts/successes/writing-exemplars.js';
export type { AttributedError } from './rules/charter-attribution.js';
export { attributeToCharter } from './rules/charter-attribution.js';
export type {
  ContributionRow,
  ContributionRowId,
  ContributionSource,
  RecordedContributionRow,
  SignedContributionRow,
  SilentContributionRow,
} from './rules/contribution-table.js';
export { contributionTable } from './rules/contribution-table.js';
export type { Contributions } from './rules/contributions.js';
export { contributions } from './rules/contributions.js';
export type {
  LabelFacts,
  LabelRule,
  LabelRuleId,
  OwnerOutcomeFact,
  OwnerOutcomeKind,
} from './rules/derive-label.js';
export { deriveLabel, labelRules } from './rules/derive-label.js';
export type {
  ExpectationContext,
  ExpectationCoverage,
  ExpectationScore,
  ExpectationUnknownReason,
  OwnerAct,
} from './rules/expectations.js';
export {
  defaultWaitMs,
  expectationCoverage,
  hasExpectation,
  scoreExpectation,
} from './rules/expectations.js';
export type { FollowUp } from './rules/follow-up.js';
export {
  cutShortCounters,
  followUpFor,
  isCutShort,
  residueLabels,
  stagesFollowUp,
} from './rules/follow-up.js';
export { labelFactsFor } from './rules/label-facts-for.js';
export type { Population, PopulationStanding } from './rules/population.js';
export { populationRule, scanPopulation, selectPopulation, wantedBy } from './rules/population.js';
export type { PopulationOptions } from './rules/population-options.js';
export type { LabelReach, Producer } from './rules/reachability.js';
export { reachability, reachabilityLine, reachableLabels } from './rules/reachability.js';
export type { Valence } from './rules/valence.js';
export { valence } from './rules/valence.js';
export type {
  BoardProject,
  BoardRecord,
  BoardTask,
  TaskStatus,
} from './schemas/board.js';
export {
  boardProjectSchema,
  boardRecordSchema,
  boardTaskSchema,
  taskStatusSchema,
} from './schemas/board.js';
export type { ClosureRecord } from './schemas/closures.js';
export { closureRecordSchema } from './schemas/closures.js';
export type { ComparisonRecord, CounterfactualRecord } from './schemas/comparisons.js';
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
export {
  charterReadingStateSchema,
  conditionsSnapshotSchema,
  situationBriefSchema,
} from './schemas/conditions.js';
export type { CorpusAppraisal, PredictionGroup, ProbeReadout } from './schemas/corpus-appraisal.js';
export {
  corpusAppraisalSchema,
  predictionGroupSchema,
  probeReadoutSchema,
} from './schemas/corpus-appraisal.js';
export type { ExpectationScoreRecord } from './schemas/expectation-scores.js';
export { expectationScoreRecordSchema } from './schemas/expectation-scores.js';
export type {
  Agency,
  Channel,
  Cite,
  Controllable,
  GoalError,
  GoalRef,
  Label,
} from './schemas/goal-error.js';
export {
  agencySchema,
  channelSchema,
  citeSchema,
  controllableSchema,
  goalErrorSchema,
  goalRefSchema,
  labelSchema,
} from './schemas/goal-error.js';
export type {
  CurationRecord,
  ExpectedAct,
  OwnerOutcomeRecord,
  ReflectionRecord,
  TextAppraisalRecord,
} from './schemas/learning.js';
export {
  curationRecordSchema,
  expectedActSchema,
  ownerOutcomeRecordSchema,
  reflectionRecordSchema,
  textAppraisalRecordSchema,
} from './schemas/learning.js';
export type { DraftOutcome, DraftStaged, OutboxRecord } from './schemas/outbox.js';
export { draftOutcomeSchema, draftStagedSchema, outboxRecordSchema } from './schemas/outbox.js';
export type { PredictionRecord } from './schemas/predictions.js';
export { predictionRecordSchema } from './schemas/predictions.js';
export type { Actor, Taint } from './schemas/primitives.js';
export {
  actorSchema,
  idSchema,
  nameSchema,
  taintSchema,
  timestampSchema,
} from './schemas/primitives.js';
export type { QuestionRecord } from './schemas/questions.js';
export { questionRecordSchema } from './schemas/questions.js';
export type { RecordSchemaName } from './schemas/record-schemas.js';
export { recordSchemas } from './schemas/record-schemas.js';
export type { RequestRecord } from './schemas/requests.js';
export { requestRecordSchema } from './schemas/requests.js';
export type { SkippedLine, SourceRead } from './schemas/source-read.js';
export { isComplete, recordsOf } from './schemas/source-read.js';
export type {
  AppraiserVerdictEvent,
  RunEndEvent,
  RunStartEvent,
  SessionKind,
  StopCause,
  Surface,
  TranscriptEvent,
} from './schemas/transcript.js';
export {
  appraiserVerdictEventSchema,
  compactionEventSchema,
  counterEventSchema,
  interventionEventSchema,
  messageEventSchema,
  runEndEventSchema,
  runStartEventSchema,
  sessionKindSchema,
  stepCheckEventSchema,
  stopCauseSchema,
  surfaceSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  transcriptEventSchema,
} from './schemas/transcript.js';
export type { WorkflowRecord } from './schemas/workflows.js';
export { workflowRecordSchema } from './schemas/workflows.js';
export { endOfLocalDay, isTimeZone } from './support/local-day.js';
export { stripControl, stripControlDeep } from './support/strip-control.js';
