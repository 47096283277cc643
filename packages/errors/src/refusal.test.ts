import fc from 'fast-check';
import * as E from 'fp-ts/Either';
import { describe, expect, it } from 'vitest';
import { isLeft, leftOrThrow, rightOrThrow } from './either.js';
import { type Either, left, type Refusal, type RefusalKind, refusal, right } from './refusal.js';

const kinds: readonly RefusalKind[] = [
  'invalid_record',
  'lock_timeout',
  'io',
  'vanished',
  'no_home',
  'refused',
  'bad_request',
  'unreadable',
  'not_found',
  'ambiguous',
  'unchanged',
  'nobody_present',
  'rejected',
  'not_written',
  'board_unreadable',
  'no_task',
  'no_sessions',
  'hook_refused',
  'unreachable',
  'call_failed',
  'connection_lost',
];

const aRefusal: fc.Arbitrary<Refusal> = fc
  .tuple(fc.constantFrom(...kinds), fc.string())
  .map(([kind, message]) => refusal(kind, message));

describe('Either<Refusal, T>', () => {
  it('keeps a refusal its kind and message, and nothing else', () => {
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.string(), (kind, message) => {
        expect(refusal(kind, message)).toEqual({ kind, message });
      }),
    );
  });

  it('gives back the side it was built with, untouched', () => {
    fc.assert(
      fc.property(aRefusal, fc.anything(), (refused, value) => {
        const failed: Either<Refusal, unknown> = left(refused);
        const done: Either<Refusal, unknown> = right(value);
        expect(isLeft(failed)).toBe(true);
        expect(isLeft(done)).toBe(false);
        expect(leftOrThrow(failed)).toBe(refused);
        expect(rightOrThrow(done)).toBe(value);
      }),
    );
  });

  it('is the same value as an fp-ts Either, both ways', () => {
    fc.assert(
      fc.property(aRefusal, fc.anything(), (refused, value) => {
        expect(left(refused)).toEqual(E.left(refused));
        expect(right(value)).toEqual(E.right(value));
        // Values built by fp-ts read with these helpers, and ours with fp-ts.
        expect(leftOrThrow(E.left(refused))).toBe(refused);
        expect(E.isLeft(left(refused))).toBe(true);
        expect(E.getOrElse<Refusal, unknown>(() => 'none')(right(value))).toBe(value);
      }),
    );
  });
});
