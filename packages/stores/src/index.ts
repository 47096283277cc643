// The one unwrap for writers' Eithers, from @mecha/errors, so a harness needs no second import.
export { rightOrThrow } from '@mecha/errors';
export type { CharterSensorFinding } from '@mecha/homeostat';
export { saturationRuns } from '@mecha/homeostat';
export type { LockState } from './advisory-lock.js';
export { withLock } from './advisory-lock.js';
export type { TailRepair } from './append-lines.js';
export { appendLinesDurably, maxRecordBytes } from './append-lines.js';
export type { BoardRecordInput, BoardStore } from './board-store.js';
export type { CharterFileEdit, CharterRead } from './charter-file.js';
export type { CloseTaskRequest, ReopenTaskRequest } from './close-task.js';
export { closeTask, reopenTask } from './close-task.js';
export type {
  ClosedFromSurface,
  FollowUpOutcome,
  HookFailure,
  ReopenedFromSurface,
} from './close-task-from-surface.js';
export type { ConfigIssue, McpServerConfig, MechaConfig } from './config.js';
export { configIssueText, configSchema, parseConfig, readConfig } from './config.js';
export type { DistilledOutcome, DistillLedger } from './distill-ledger.js';
export { withDistillLedger } from './distill-ledger.js';
export type { GuardedCall, GuardedTaskTool, TaskTool } from './guard-task-tool.js';
export { assertTaskToolsGuarded, guardTaskTool } from './guard-task-tool.js';
export type {
  HomeCheck,
  LockCheck,
  RepairOutcome,
  StoreCheck,
  StoreRepair,
} from './home-doctor.js';
export { checkHome, repairHome } from './home-doctor.js';
export { homeLayout } from './home-layout.js';
export { homePorts } from './home-ports.js';
export type { HookName } from './hooks.js';
export type { InitHomeResult } from './init-home.js';
export { initHome } from './init-home.js';
export type { AppendStore, ReadableStore } from './jsonl-store.js';
export type { AdapterRun, AdapterSession, AdapterSessionOptions } from './live/adapter-session.js';
export { adapterSession, contentDigest } from './live/adapter-session.js';
export type { BeganRun, BeginRunOptions, RunMode, SettingNotice } from './live/begin-run.js';
export { beginRun } from './live/begin-run.js';
export type { BriefConversation } from './live/brief-conversation.js';
export { briefConversation } from './live/brief-conversation.js';
export type { DiagnosticBriefQuestion } from './live/diagnostic-brief-from-home.js';
export { diagnosticBriefFromHome } from './live/diagnostic-brief-from-home.js';
export type {
  GoalContext,
  GoalContextPart,
  GoalContextRequest,
  GoalExample,
  PastAppraisal,
} from './live/goal-context.js';
export { goalContext } from './live/goal-context.js';
export type { CorpusRead, ReadoutChange } from './live/home-readout.js';
export { HomeReadout } from './live/home-readout.js';
export type { MachineSensors } from './live/home-sensors.js';
export type { RunRow } from './live/run-row.js';
export { runsOfTranscript } from './live/run-row.js';
export type { HarnessSituation } from './live/situation-from-home.js';
export { situationFromHome } from './live/situation-from-home.js';
export type { HomeWatch, WatchHomeOptions } from './live/watch-home.js';
export { watchHome } from './live/watch-home.js';
export { refuseMissingHome } from './missing-home.js';
export type {
  AppraisalStores,
  CurationStores,
  LearningStores,
  MechaHome,
  OpenHomeOptions,
} from './open-home.js';
export { openHome } from './open-home.js';
export type { OutcomeRecorder } from './outcome-recorder.js';
export { createOutcomeRecorder } from './outcome-recorder.js';
export type { AddedTask, AddTaskRequest, NewTaskStatus, TaskHolder } from './owner/add-task.js';
export { addTask, newTaskStatuses, taskHolders } from './owner/add-task.js';
export type { AnsweredQuestion } from './owner/answer-question.js';
export { answerParkedQuestion } from './owner/answer-question.js';
export type {
  CharterCommand,
  CharterCommandOp,
  CharterCommandRequest,
} from './owner/charter-command.js';
export { charterCommand, charterCommandOptions } from './owner/charter-command.js';
export type { DraftChoice, DraftVerdict, DraftVerdictRequest } from './owner/draft-verdict.js';
export { decideDraft } from './owner/draft-verdict.js';
export type { CharterChange, EditedCharter } from './owner/edit-charter.js';
export { editCharter } from './owner/edit-charter.js';
export type {
  MovedTask,
  MoveTaskRequest,
  RefiledTask,
  TaskMove,
  TaskMoveRefusal,
} from './owner/move-task.js';
export { moveTask } from './owner/move-task.js';
export type {
  OwnerActRefusal,
  OwnerRefusalKind,
  SurfaceRefusalKind,
} from './owner/owner-refusal.js';
export { draftAsShown } from './owner/owner-words.js';
export type { ProcessIdentity } from './process-ancestry.js';
export type { CompareSessionOptions, CompareSessionResult } from './readouts/compare-session.js';
export { compareSession } from './readouts/compare-session.js';
export type { ProbeReadoutOptions, ReplayWorkspace } from './readouts/probe-readout.js';
export { probeReadout } from './readouts/probe-readout.js';
export type { DraftVerdictRead } from './readouts/read-draft-verdict.js';
export { readDraftVerdict } from './readouts/read-draft-verdict.js';
export type { ReadProblem } from './readouts/read-log.js';
export { readProblems, withReadLog } from './readouts/read-log.js';
export type { QuestionAnswerRead } from './readouts/read-question-answer.js';
export { readQuestionAnswer } from './readouts/read-question-answer.js';
export type { QuestionWordsRead } from './readouts/read-question-words.js';
export { readQuestionWords } from './readouts/read-question-words.js';
export { sessionReadout } from './readouts/session-readout.js';
export type { TaskFilter, TaskList } from './readouts/task-list.js';
export { listTasks } from './readouts/task-list.js';
export type { TextAppraisalReadout } from './readouts/text-appraisals.js';
export { textAppraisalReadout } from './readouts/text-appraisals.js';
export type { HomeLocation } from './resolve-home.js';
export { resolveHome } from './resolve-home.js';
export type { RunRecorder, ToolResultRecorded } from './run-recorder.js';
export type { PresenceOptions, RunPresence } from './run-registration.js';
export { registerShell, registrationVariables, runPresence } from './run-registration.js';
export type { DistilledRecord } from './schemas/distilled-record.js';
export { distilledRecordSchema } from './schemas/distilled-record.js';
export { manifestSchema } from './schemas/manifest.js';
export type { RuleRecord } from './schemas/rule-record.js';
export { ruleRecordSchema } from './schemas/rule-record.js';
export type { ShellRegistration } from './schemas/shell-registration.js';
export { shellRegistrationSchema } from './schemas/shell-registration.js';
export type { SeededRandom } from './seeded-random.js';
export { seededRandom } from './seeded-random.js';
export type { Recorded, SessionRecorder, StartRunOptions } from './session-recorder.js';
export { createSessionRecorder } from './session-recorder.js';
export type { SessionsForTask } from './sessions-for-task.js';
export { sessionsForTask } from './sessions-for-task.js';
export type { SessionStore } from './sessions-store.js';
export type { OutboxRecordInput, TranscriptEventInput } from './store-schemas.js';
export type {
  ToolFinding,
  ToolRegistration,
  ToolRegistry,
  ToolRegistryRead,
} from './tool-registry.js';
export {
  readToolRegistry,
  recordToolRegistry,
  toolFindings,
  toolRegistryFile,
  toolRegistrySchema,
} from './tool-registry.js';
export { UnguardedTaskToolError } from './unguarded-task-tool-error.js';
export type { WriteFailure } from './write-failure.js';
