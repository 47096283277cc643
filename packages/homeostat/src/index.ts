export type { BoredomDetector, BoredomNotice } from './boredom.js';
export { boredomDetector, boredomRungs, detectBoredom } from './boredom.js';
export { charterReadings, meetsSetpoint } from './build-conditions.js';
export type { CharterSensorFinding } from './charter-sensor-findings.js';
export { charterSensorFindings, saturationRuns } from './charter-sensor-findings.js';
export type { TurnReading } from './conditions-at-end.js';
export type { OwnerTime, PartOfDay, QuietHours } from './owner-time.js';
export { ownerTime } from './owner-time.js';
export type { CommitmentSources, PendingRow, PendingStores } from './pending-commitments.js';
export { pendingCommitments } from './pending-commitments.js';
export type { GuidanceReason, PlanningGuidance } from './planning-guidance.js';
export { planningGuidance } from './planning-guidance.js';
export type { Reading } from './reading.js';
export { couldNotRead, readValue } from './reading.js';
export type { RecordedConditions } from './recorded-conditions.js';
export { parseRecordedConditions, recordedConditions } from './recorded-conditions.js';
export type {
  LiveSensors,
  ReplayContext,
  RunContext,
  StartedConditions,
} from './run-context.js';
export {
  finishConditions,
  replayContext,
  sampleConditions,
} from './run-context.js';
export { shouldSendBrief } from './should-send-brief.js';
export type {
  Attempt,
  AttemptsInput,
  BudgetInput,
  GoalInput,
  GoalProject,
  OwnerAct,
  RunsInput,
  SeatsInput,
  ServedLine,
  SituationBrief,
  SituationInput,
  SlotsInput,
  VoiceInput,
} from './situation-brief.js';
export { briefHeading, renderBrief } from './situation-brief.js';
export type { BoardSummary, OwnTask } from './summarize-board.js';
export { summarizeBoard } from './summarize-board.js';
export { voiceState } from './voice-state.js';
