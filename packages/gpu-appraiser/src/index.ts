export type { AppraisalLimits, LimitProblem } from './appraisal-limits.js';
export { defaultAppraisalLimits, validateAppraisalLimits } from './appraisal-limits.js';
