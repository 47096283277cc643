export type { VerdictTally } from './aggregate.js';
export {
  certifiedRate,
  formatTally,
  mergeTallies,
  suiteVerdict,
  tallyVerdicts,
} from './aggregate.js';
export type { BankCase, Expectation } from './bank.js';
export {
  bundledBankDir,
  caseContentHash,
  expectationHolds,
  formatExpectation,
  readBank,
} from './bank.js';
export type { ConfirmResult, Finding, FindVerdict } from './claims/find-verdict.js';
export { auditFindings, confirmFind, gradeFind } from './claims/find-verdict.js';
export type { GapHistory, SelfImageOverTime } from './claims/gap-history.js';
export { auditSelfImageOverTime, readGapHistory, recordGap } from './claims/gap-history.js';
export type {
  GapReading,
  GapTrend,
  SelfClaim,
  SelfClaimGrade,
  SelfImageAudit,
  SkillEvidence,
} from './claims/self-claims.js';
export {
  auditSelfImage,
  behaviourRate,
  beliefGap,
  claimOf,
  gapTrend,
  gradeSelfClaim,
  minimumTrendHistory,
  portraitIsHonest,
  reliabilityFloor,
  reliableRate,
  reliableSkills,
  weaknessFloor,
  weakRate,
} from './claims/self-claims.js';
export type {
  AppraisalHome,
  AppraisalRecords,
  SkillEvidenceReadout,
} from './claims/skill-evidence-from-records.js';
export {
  readSkillEvidence,
  skillEvidenceFromRecords,
} from './claims/skill-evidence-from-records.js';
export type { SelfImageInput } from './claims/skill-evidence-schema.js';
export { selfImageInputSchema } from './claims/skill-evidence-schema.js';
export { canonicalJson } from './drift/canonical-json.js';
export type {
  BankOptions,
  CaseResult,
  DriftReport,
  Flip,
  FreezeResult,
  FrozenBank,
  MetaReport,
} from './drift/drift-watch.js';
export {
  checkBank,
  driftExitCodes,
  freezeBank,
  frozenPath,
  runMeta,
  toolchainVersions,
} from './drift/drift-watch.js';
export type { Seal, SealCheck } from './drift/seal.js';
export { checkSeal, sealKeyVariable, sealOf } from './drift/seal.js';
export { GraderInputError } from './errors/grader-input-error.js';
export type { Grade, GraderIdentity } from './grade.js';
export { gradeSchema, makeGrade } from './grade.js';
export type { GradeLoopOptions, GradeLoopOutcome, GradeLoopStatus } from './grade-loop.js';
export { gradeLoop, ungradedMessage } from './grade-loop.js';
export type { GraderEntry } from './graders/builtin.js';
export {
  builtinGraders,
  graderHash,
  graderIdentity,
  gradeTask,
  packageRoot,
} from './graders/builtin.js';
export type { EscapeHatch } from './graders/escape-hatches.js';
export { findEscapeHatches } from './graders/escape-hatches.js';
export type { GradeOptions, GraderProgress } from './graders/grader.js';
export type { HiddenReferenceTask } from './graders/hidden-reference-grader.js';
export { gradeHiddenReference } from './graders/hidden-reference-grader.js';
export type { Mutant, MutationOperator } from './graders/mutants.js';
export { applyMutant, findMutants, mutationOperators } from './graders/mutants.js';
export type { MutationTask } from './graders/mutation-grader.js';
export { gradeByMutation } from './graders/mutation-grader.js';
export type { TypecheckTask } from './graders/typecheck-grader.js';
export { gradeTypecheck } from './graders/typecheck-grader.js';
export { sweepOrphans } from './graders/workspace.js';
export { heldOutSide, splitHeldOut } from './held-out-split.js';
export type {
  AblationEvaluator,
  MemoryAblation,
  MemoryWorth,
  QueryOutcome,
} from './oracles/memory-ablation.js';
export {
  ablateMemories,
  keepThreshold,
  plantedPoison,
  poisonSelfTest,
} from './oracles/memory-ablation.js';
export type { ReflectionGrade, ReflectionStatement } from './oracles/reflection-oracle.js';
export { gradeReflection } from './oracles/reflection-oracle.js';
export type { RetrievalGrade, RetrievalLabel } from './oracles/retrieval-oracle.js';
export { gradeRetrieval, queryLeaked } from './oracles/retrieval-oracle.js';
export type { GraphMemory, GraphSnapshot } from './prune/graph-memory.js';
export {
  answerQuery,
  graphDigest,
  graphEvaluator,
  plantedPoisonSource,
  plantGraphPoison,
  snapshotGraph,
} from './prune/graph-memory.js';
export type {
  GraphAccess,
  MemoryGraph,
  MemoryGraphEpisode,
  MemoryGraphFact,
  MemoryGraphPage,
  MemoryGraphProvenance,
  MemoryGraphRedaction,
  PlantedEpisode,
} from './prune/graph-port.js';
export type {
  GraphApplyResult,
  GraphMemoryAblation,
  GraphPrunePlanReport,
} from './prune/graph-prune.js';
export { applyGraphPrune, planGraphPrune } from './prune/graph-prune.js';
export type {
  MemoryQuery,
  MemoryQueryBank,
  RefusedQuery,
  SealedQueryBank,
} from './prune/memory-query-bank.js';
export {
  memoryQueryBankSchema,
  memoryQuerySchema,
  readQueryBank,
  sealQueryBank,
} from './prune/memory-query-bank.js';
export type {
  ApplyResult,
  PrunePlan,
  PrunePlanGraph,
  PruneProof,
  PruneProposal,
  SignedPrunePlan,
} from './prune/signed-prune.js';
export {
  applyPrunePlan,
  proposePrunes,
  provePrunes,
  prunePlan,
  prunePlanSchema,
  signedPrunePlanSchema,
  signPrunePlan,
  verifyPrunePlan,
} from './prune/signed-prune.js';
export type {
  AuditFinding,
  AuditReport,
  GraderDeclaration,
  GraderShape,
  Judge,
  Rung,
} from './registry.js';
export { auditGraders, detectRung, earnableVerdict, graderKinds, rungs } from './registry.js';
export type { Verdict } from './verdict.js';
export { parseVerdict, retryMayHelp, verdictCode, verdicts } from './verdict.js';
export type { VerifyReport } from './verify.js';
export { verifyGraders } from './verify.js';
