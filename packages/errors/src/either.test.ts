import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EitherLike, isLeft, leftOrThrow, rightOrThrow } from './either.js';
import { MechaError } from './mecha-error.js';
import { UnexpectedLeftError } from './unexpected-left-error.js';

const left = <L>(value: L): EitherLike<L, never> => ({ _tag: 'Left', left: value });
const right = <R>(value: R): EitherLike<never, R> => ({ _tag: 'Right', right: value });

describe('the Either helpers', () => {
  it('give back the side asked for, untouched', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(rightOrThrow(right(value))).toBe(value);
        expect(leftOrThrow(left(value))).toBe(value);
        expect(isLeft(left(value))).toBe(true);
        expect(isLeft(right(value))).toBe(false);
      }),
    );
  });

  it('throw a branded UnexpectedLeftError naming what failed and why', () => {
    let thrown: unknown;
    try {
      rightOrThrow(left({ kind: 'io', message: 'disk full' }), 'the board write');
    } catch (error) {
      thrown = error;
    }
    expect(UnexpectedLeftError.isInstance(thrown)).toBe(true);
    expect(MechaError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toBe(
      'expected the board write to succeed, but it failed: disk full',
    );
    expect((thrown as UnexpectedLeftError).found).toEqual({ kind: 'io', message: 'disk full' });
    expect(() => leftOrThrow(right(3), 'the refusal')).toThrow(
      'expected the refusal to fail, but it succeeded with 3',
    );
  });
});
