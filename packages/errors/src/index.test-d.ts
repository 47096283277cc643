// Type tests of the main entry: the signatures a harness author relies on. Checked by the
// package's typecheck (tsc --noEmit); a wrong type fails it.
import type * as E from 'fp-ts/Either';
import { describe, expectTypeOf, it } from 'vitest';
import {
  couldNotRead,
  type Either,
  type EitherLike,
  errorGuard,
  isLeft,
  left,
  MechaError,
  type Refusal,
  type RefusalKind,
  readValue,
  recordsOf,
  refusal,
  right,
  rightOrThrow,
  type SourceRead,
  type ValueRead,
} from './index.js';

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

describe('the two failure shapes', () => {
  it('spell an act as an fp-ts Either over a Refusal', () => {
    expectTypeOf<Either<Refusal, number>>().toEqualTypeOf<E.Either<Refusal, number>>();
    expectTypeOf(left(refusal('io', 'disk full'))).toMatchTypeOf<Either<Refusal, string>>();
    expectTypeOf(right(3)).toMatchTypeOf<Either<Refusal, number>>();
    expectTypeOf(right(3)).not.toMatchTypeOf<Either<Refusal, string>>();
    expectTypeOf(refusal('no_task', 'gone')).toEqualTypeOf<Refusal<'no_task'>>();
    expectTypeOf<Refusal<'io'>>().toMatchTypeOf<Refusal>();
    expectTypeOf<Refusal['kind']>().toEqualTypeOf<RefusalKind>();
  });

  it('spell a read as SourceRead, whose records are absent only when unreadable', () => {
    expectTypeOf(recordsOf<number>).returns.toEqualTypeOf<readonly number[] | undefined>();
    expectTypeOf<Extract<SourceRead<number>, { state: 'unreadable' }>>().not.toHaveProperty(
      'records',
    );
    expectTypeOf(readValue(3)).toEqualTypeOf<ValueRead<number>>();
    expectTypeOf(couldNotRead('gone')).toMatchTypeOf<ValueRead<string>>();
    expectTypeOf<Extract<ValueRead<number>, { state: 'unreadable' }>>().not.toHaveProperty('value');
  });
});
