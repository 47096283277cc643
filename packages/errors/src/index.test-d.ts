// Type tests of the main entry: the signatures a harness author relies on. Checked by the
// package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import { type EitherLike, errorGuard, isLeft, MechaError, rightOrThrow } from './index.js';

class NotFound extends MechaError {
  readonly kind = 'not_found';
}

expectTypeOf(errorGuard<NotFound>).returns.toEqualTypeOf<(value: unknown) => value is NotFound>();
expectTypeOf(rightOrThrow<string, number>)
  .parameter(0)
  .toEqualTypeOf<EitherLike<string, number>>();
expectTypeOf(rightOrThrow<string, number>).returns.toEqualTypeOf<number>();
declare const either: EitherLike<string, number>;
if (isLeft(either)) expectTypeOf(either.left).toEqualTypeOf<string>();
expectTypeOf(new NotFound('gone')).toMatchTypeOf<Error>();
