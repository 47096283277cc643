export type { VerdictTally } from './aggregate.js';
export { tallyVerdicts } from './aggregate.js';
export type { Expectation } from './bank.js';
export { bundledBankDir, formatExpectation } from './bank.js';
export type { SelfImageOverTime } from './claims/gap-history.js';
export { auditSelfImageOverTime } from './claims/gap-history.js';
export type { GapRecording, HomeSelfImage } from './claims/home-self-image.js';
export { auditHomeSelfImage } from './claims/home-self-image.js';
export type {
  GapTrend,
  SelfClaimGrade,
  SelfImageAudit,
  SkillEvidence,
} from './claims/self-claims.js';
export { auditSelfImage, reliabilityFloor } from './claims/self-claims.js';
export type { AppraisalHome, SkillEvidenceReadout } from './claims/skill-evidence-from-records.js';
export { readSkillEvidence } from './claims/skill-evidence-from-records.js';
export { selfImageInputSchema } from './claims/skill-evidence-schema.js';
export type {
  BankOptions,
  CaseResult,
  DriftReport,
  Flip,
  FreezeRefusal,
  FreezeResult,
  FrozenWrite,
  MetaReport,
} from './drift/drift-watch.js';
export { checkBank, driftExitCodes, freezeBank, runMeta } from './drift/drift-watch.js';
export { GraderInputError } from './errors/grader-input-error.js';
export type { Grade, GraderIdentity } from './grade.js';
export type { GradeLoopOptions, GradeLoopOutcome, GradeLoopStatus } from './grade-loop.js';
export { gradeLoop } from './grade-loop.js';
export type { GraderEntry } from './graders/builtin.js';
export { builtinGraders, gradeTask } from './graders/builtin.js';
export type { GradeOptions } from './graders/grader.js';
export type { Mutant, MutationOperator } from './graders/mutants.js';
export type { MutationTask } from './graders/mutation-grader.js';
export { gradeByMutation, guardBound, warmTimeLimitMs } from './graders/mutation-grader.js';
export type { MutationPlan, MutationPlanOptions } from './graders/mutation-plan.js';
export { planMutation } from './graders/mutation-plan.js';
export type { AblationEvaluator } from './oracles/memory-ablation.js';
export type { GraphSnapshot } from './prune/graph-memory.js';
export { graphEvaluator, snapshotGraph } from './prune/graph-memory.js';
export type { GraphAccess, MemoryGraph } from './prune/graph-port.js';
export type {
  GraphApplyResult,
  GraphMemoryAblation,
  GraphPrunePlanReport,
  GraphPruneRemoval,
} from './prune/graph-prune.js';
export { applyGraphPrune, planGraphPrune } from './prune/graph-prune.js';
export type {
  MemoryQuery,
  MemoryQueryBank,
  RefusedQuery,
  SealedQueryBank,
} from './prune/memory-query-bank.js';
export { readQueryBank, sealQueryBank } from './prune/memory-query-bank.js';
export type {
  PrunePlan,
  PrunePlanGraph,
  PruneProof,
  PruneProposal,
  SignedPrunePlan,
} from './prune/signed-prune.js';
export {
  prunePlanSchema,
  signedPrunePlanSchema,
  signPrunePlan,
  verifyPrunePlan,
} from './prune/signed-prune.js';
export type { AuditFinding, AuditReport, GraderDeclaration, GraderShape } from './registry.js';
export { auditGraders } from './registry.js';
export type { Verdict } from './verdict.js';
export { verdictCode, verdicts } from './verdict.js';
export type { VerifyReport } from './verify.js';
export { verifyGraders } from './verify.js';
