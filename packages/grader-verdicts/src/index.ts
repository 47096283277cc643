export type { Verdict } from './verdict.js';
export { parseVerdict, retryMayHelp, verdictCode, verdicts } from './verdict.js';
