export type { Charter, CharterLine, CharterLineField } from './charter.js';
export { charterLineSchema, charterSchema } from './charter.js';
export { CharterArgumentError } from './charter-argument-error.js';
export type { CharterSensor } from './charter-sensor.js';
export { charterSensors, isCharterSensor } from './charter-sensor.js';
export type { CharterResult } from './codec.js';
export { parseCharter, stringifyCharter, validateCharter } from './codec.js';
export { formatDuration, parseDuration } from './duration.js';
export type { CharterEdit, CharterEditError } from './editor.js';
export {
  addLine,
  clearLineSensor,
  clearLineSetpoint,
  moveLine,
  removeLine,
  setLineSensor,
  setLineSetpoint,
  setLineText,
} from './editor.js';
export type {
  CommitmentReading,
  CommitmentStore,
  NotOwedReading,
  OwedReading,
  Patience,
  PendingCommitment,
  RequestStatus,
  WatchingLine,
} from './guilt.js';
export {
  anticipatedGuilt,
  appraiseCommitment,
  appraiseCommitments,
  commitmentAge,
  commitmentStores,
  defaultPatience,
  excess,
  patienceOf,
  rankWeight,
  sensorForStore,
  unwatchedWeight,
} from './guilt.js';
export type { CharterIssue } from './issues.js';
export type { OwnerEdit, OwnerSurface } from './owner-edit.js';
export { isOwnerEdit } from './owner-edit.js';
