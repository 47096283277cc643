export type {
  ExportAppraisalsOptions,
  ExportAppraisalsOutcome,
  ExportedAppraisals,
  ExportRefusal,
  OtlpProtocol,
} from './export-appraisals.js';
export { exportAppraisals } from './export-appraisals.js';
