export type { VerdictTally } from './aggregate.js';
export {
  certifiedRate,
  formatTally,
  mergeTallies,
  suiteVerdict,
  tallyVerdicts,
} from './aggregate.js';
export type { Grade, GraderIdentity } from './grade.js';
export { gradeSchema, makeGrade } from './grade.js';
export type { GradeLoopOptions, GradeLoopOutcome, GradeLoopStatus } from './grade-loop.js';
export { gradeLoop, ungradedMessage } from './grade-loop.js';
export type { Verdict } from './verdict.js';
export { parseVerdict, retryMayHelp, verdictCode, verdicts } from './verdict.js';
