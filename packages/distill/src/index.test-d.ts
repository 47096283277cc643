// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import type { Either, Refusal, SourceRead } from '@mecha/errors';
import type { MechaHome } from '@mecha/stores';
import { expectTypeOf } from 'vitest';
import {
  type DistillOptions,
  type DistillResult,
  distill,
  dropLesson,
  editLesson,
  formatDistillReport,
  type LessonOnRecord,
  lessonsOnRecord,
} from './index.js';

expectTypeOf(distill).parameters.toEqualTypeOf<[options: DistillOptions]>();
expectTypeOf(distill).returns.resolves.toEqualTypeOf<DistillResult>();
expectTypeOf(formatDistillReport).parameters.toEqualTypeOf<[result: DistillResult]>();
expectTypeOf(formatDistillReport).returns.toEqualTypeOf<string[]>();

// The lesson verdicts answer the two failure shapes: a read, and acts that may be refused.
expectTypeOf(lessonsOnRecord).returns.resolves.toEqualTypeOf<SourceRead<LessonOnRecord>>();
expectTypeOf(dropLesson).parameters.toEqualTypeOf<
  [home: MechaHome, lessonId: string, clock?: () => Date]
>();
expectTypeOf(dropLesson).returns.resolves.toExtend<
  Either<Refusal, { readonly lessonId: string }>
>();
expectTypeOf(editLesson).returns.resolves.toExtend<
  Either<Refusal, { readonly lessonId: string; readonly text: string }>
>();
