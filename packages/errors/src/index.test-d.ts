import type * as E from 'fp-ts/Either';
import { describe, expectTypeOf, it } from 'vitest';
import {
  couldNotRead,
  type Either,
  left,
  type Refusal,
  type RefusalKind,
  readValue,
  recordsOf,
  refusal,
  right,
  type SourceRead,
  type ValueRead,
} from './index.js';

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
