export type { ValenceSums } from './format-valence.js';
export { formatValence } from './format-valence.js';
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
  RunEndEvent,
  RunStartEvent,
  SessionKind,
  StopCause,
  Surface,
  TranscriptEvent,
} from './schemas/transcript.js';
export {
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
