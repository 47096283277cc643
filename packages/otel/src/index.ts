export type {
  AppraisalSpan,
  AppraisalSpanEvent,
  SessionToExport,
  SpanAttributeValue,
} from './appraisal-spans.js';
export { appraisalSpans } from './appraisal-spans.js';
export { backendNames, evaluationNames, genAiNames, mechaNames } from './attribute-names.js';
export type {
  ExportAppraisalsOptions,
  ExportAppraisalsOutcome,
  OtlpProtocol,
} from './export-appraisals.js';
export { exportAppraisals, tracesUrl } from './export-appraisals.js';
export { instrumentationScope, readableSpans } from './readable-spans.js';
export { spanIdFor, traceIdFor } from './span-ids.js';
