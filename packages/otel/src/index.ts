export type {
  ExportAppraisalsOptions,
  ExportAppraisalsOutcome,
  OtlpProtocol,
} from './export-appraisals.js';
export { exportAppraisals } from './export-appraisals.js';
