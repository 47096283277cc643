// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import {
  type Grade,
  type GradeLoopOptions,
  type GradeLoopOutcome,
  gradeLoop,
  gradeTask,
  guardBound,
  type Mutant,
  type MutationPlan,
  type MutationPlanOptions,
  planMutation,
  tallyVerdicts,
  type Verdict,
  type VerdictTally,
} from './index.js';

expectTypeOf(gradeTask).parameter(0).toEqualTypeOf<string>();
expectTypeOf(gradeTask).parameter(2).toEqualTypeOf<string>();
expectTypeOf(gradeTask).returns.resolves.toEqualTypeOf<Grade>();
expectTypeOf(tallyVerdicts).parameter(0).toEqualTypeOf<Iterable<{ readonly verdict: Verdict }>>();
expectTypeOf(tallyVerdicts).returns.toEqualTypeOf<VerdictTally>();
expectTypeOf<Grade['verdict']>().toEqualTypeOf<Verdict>();
expectTypeOf(gradeLoop<string>).parameters.toEqualTypeOf<[options: GradeLoopOptions<string>]>();
expectTypeOf(gradeLoop<string>).returns.resolves.toEqualTypeOf<GradeLoopOutcome<string>>();
expectTypeOf(planMutation).parameters.toEqualTypeOf<
  [file: string, options?: MutationPlanOptions]
>();
expectTypeOf(planMutation).returns.resolves.toEqualTypeOf<MutationPlan>();
expectTypeOf<MutationPlan['mutants']>().toEqualTypeOf<readonly Mutant[]>();
expectTypeOf(guardBound).returns.toEqualTypeOf<number>();
