export type { CorpusOptions } from './appraise-corpus.js';
export { appraiseCorpus } from './appraise-corpus.js';
export type { RunAppraisal } from './appraise-run.js';
export { appraiseRun } from './appraise-run.js';
export type { SessionAppraisal, TextAppraisalLookup } from './appraise-session.js';
export { appraiseSession } from './appraise-session.js';
export type { AttributedError } from './charter-attribution.js';
export { attributeToCharter } from './charter-attribution.js';
export type { ClosureAppraisal, ClosureMove } from './closure-appraisal.js';
export { appraiseClosure, closureAppraisal } from './closure-appraisal.js';
export type { ClosureTally, UnreadableClosureReason } from './closure-line.js';
export { closureLine, tallySignals, unreadableClosureLine } from './closure-line.js';
export type {
  ContributionRow,
  ContributionRowId,
  ContributionSource,
  RecordedContributionRow,
  SignedContributionRow,
  SilentContributionRow,
} from './contribution-table.js';
export { contributionTable } from './contribution-table.js';
export type { Contributions } from './contributions.js';
export { contributions } from './contributions.js';
export type { CorpusAppraisal, PredictionGroup, ProbeReadout } from './corpus-appraisal.js';
export {
  corpusAppraisalSchema,
  predictionGroupSchema,
  probeReadoutSchema,
} from './corpus-appraisal.js';
export type {
  LabelFacts,
  LabelRule,
  LabelRuleId,
  OwnerOutcomeFact,
  OwnerOutcomeKind,
} from './derive-label.js';
export { deriveLabel, labelRules } from './derive-label.js';
export type {
  ExpectationContext,
  ExpectationCoverage,
  ExpectationScore,
  ExpectationUnknownReason,
  OwnerAct,
} from './expectations.js';
export {
  defaultWaitMs,
  expectationCoverage,
  hasExpectation,
  scoreExpectation,
} from './expectations.js';
export type { FollowUp } from './follow-up.js';
export {
  cutShortCounters,
  followUpFor,
  isCutShort,
  residueLabels,
  stagesFollowUp,
} from './follow-up.js';
export type { ValenceSums } from './format-valence.js';
export { formatValence } from './format-valence.js';
export type { BriefFieldState, BriefHealth, CounterHealth, HealthReadout } from './health.js';
export { briefFields, health, healthCounters } from './health.js';
export { labelFactsFor } from './label-facts-for.js';
export { endOfLocalDay, isTimeZone } from './local-day.js';
export type { Population, PopulationOptions, PopulationStanding } from './population.js';
export { populationRule, scanPopulation, selectPopulation, wantedBy } from './population.js';
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
} from './ports.js';
export type {
  ProjectAppraisal,
  ProjectEvidence,
  ProjectUnconfidentReason,
} from './project-appraisal.js';
export { appraiseProject, projectAppraisal, projectSessions } from './project-appraisal.js';
export type { LabelReach, Producer } from './reachability.js';
export { reachability, reachabilityLine, reachableLabels } from './reachability.js';
export type { SessionReading } from './read-session.js';
export { readSession } from './read-session.js';
export type { RecordSchemaName } from './record-schemas.js';
export { recordSchemas } from './record-schemas.js';
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
export type { SessionEvidence } from './session-evidence.js';
export type { SessionList, SessionRow } from './session-list.js';
export { listSessions } from './session-list.js';
export type { SessionStoreIndex, SessionStores } from './store-index.js';
export { indexSessionStores, readSessionStores } from './store-index.js';
export { stripControl, stripControlDeep } from './strip-control.js';
export type {
  LendsNoneReason,
  PlanningExample,
  PlanningSituation,
  Success,
  SuccessCite,
  SuccessesOptions,
  SuccessesReadout,
  SuccessKind,
  SuccessSource,
  SuccessSources,
  SuccessStatus,
  SuccessUnknownReason,
  WritingExemplar,
} from './successes.js';
export {
  collectSuccesses,
  examplesFor,
  formatCallTrace,
  successes,
  successKinds,
} from './successes.js';
export type { TranscriptReader } from './transcript-cache.js';
export {
  projectTranscript,
  readTranscripts,
  scanByListing,
  transcriptCache,
} from './transcript-cache.js';
export type { Valence } from './valence.js';
export { valence } from './valence.js';
