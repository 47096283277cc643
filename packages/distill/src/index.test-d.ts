// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import { type DistillOptions, type DistillResult, distill, formatDistillReport } from './index.js';

expectTypeOf(distill).parameters.toEqualTypeOf<[options: DistillOptions]>();
expectTypeOf(distill).returns.resolves.toEqualTypeOf<DistillResult>();
expectTypeOf(formatDistillReport).parameters.toEqualTypeOf<[result: DistillResult]>();
expectTypeOf(formatDistillReport).returns.toEqualTypeOf<string[]>();
