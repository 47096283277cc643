import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goalErrorArbitrary } from '../__fixtures__/evidence-arbitraries.js';
import { goalError } from '../__fixtures__/evidence-builders.js';
import type { GoalError } from '../schemas/goal-error.js';
import {
  type RankedReplayCandidate,
  type ReplayCandidate,
  rankReplayCandidates,
} from './rank-replay-candidates.js';

const charter = ['replies', 'invoices', 'tidy'];
const on = (line: string, overrides: Partial<GoalError> = {}): GoalError =>
  goalError({ goal: { kind: 'charter', id: line }, ...overrides });
/** Each ranked candidate as [id, charter line, its rank]. */
const linesOf = (ranked: readonly RankedReplayCandidate[]) =>
  ranked.map((entry) => [entry.candidate.id, entry.charterLine, entry.charterRank]);

const candidateArbitrary: fc.Arbitrary<ReplayCandidate> = fc.record({
  id: fc.string({ minLength: 1, maxLength: 4 }),
  headroom: fc.constantFrom(0, 0.5, 1, 2),
  errors: fc.array(
    fc.oneof(
      goalErrorArbitrary,
      fc
        .tuple(goalErrorArbitrary, fc.constantFrom(...charter))
        .map(([error, line]) => ({ ...error, goal: { kind: 'charter' as const, id: line } })),
    ),
    { maxLength: 4 },
  ),
});

describe('rankReplayCandidates', () => {
  it('puts more headroom first, whatever the charter says', () => {
    const order = rankReplayCandidates(
      [
        { id: 'a', headroom: 1, errors: [on('replies')] },
        { id: 'b', headroom: 2, errors: [] },
      ],
      charter,
    ).map((ranked) => ranked.candidate.id);
    expect(order).toEqual(['b', 'a']);
  });

  it('breaks a headroom tie by the highest-ranked charter line the evidence names', () => {
    const ranked = rankReplayCandidates(
      [
        { id: 'none', headroom: 1, errors: [goalError()] },
        { id: 'third', headroom: 1, errors: [on('tidy')] },
        { id: 'first', headroom: 1, errors: [on('tidy'), on('replies')] },
        { id: 'second', headroom: 1, errors: [on('invoices')] },
        { id: 'gone', headroom: 1, errors: [on('a-line-no-longer-in-the-charter')] },
      ],
      charter,
    );
    expect(linesOf(ranked)).toEqual([
      ['first', 'replies', 1],
      ['second', 'invoices', 2],
      ['third', 'tidy', 3],
      ['gone', undefined, undefined],
      ['none', undefined, undefined],
    ]);
  });

  it('takes the highest-ranked line wherever it stands among the errors', () => {
    // The best line first, then worse ones: a later error never displaces it.
    const ranked = rankReplayCandidates(
      [
        { id: 'a', headroom: 1, errors: [on('replies'), on('tidy'), on('invoices')] },
        { id: 'b', headroom: 1, errors: [on('tidy'), on('invoices'), goalError()] },
      ],
      charter,
    );
    expect(linesOf(ranked)).toEqual([
      ['a', 'replies', 1],
      ['b', 'invoices', 2],
    ]);
  });

  it('ranks a line named twice in the list by its first place', () => {
    const ranked = rankReplayCandidates(
      [
        { id: 'a', headroom: 1, errors: [on('invoices')] },
        { id: 'b', headroom: 1, errors: [on('replies')] },
      ],
      ['replies', 'invoices', 'replies'],
    );
    expect(linesOf(ranked)).toEqual([
      ['b', 'replies', 1],
      ['a', 'invoices', 2],
    ]);
  });

  it('refuses a headroom that is not a finite number', () => {
    expect(() =>
      rankReplayCandidates([{ id: 'x', headroom: Number.NaN, errors: [] }], charter),
    ).toThrow(/headroom must be a finite number/);
  });

  it('never reorders candidates whose headroom differs', () => {
    fc.assert(
      fc.property(fc.array(candidateArbitrary, { maxLength: 8 }), (candidates) => {
        const ranked = rankReplayCandidates(candidates, charter);
        for (let i = 1; i < ranked.length; i++) {
          expect(ranked[i - 1]?.candidate.headroom).toBeGreaterThanOrEqual(
            ranked[i]?.candidate.headroom ?? 0,
          );
        }
      }),
    );
  });

  it('does not depend on the input order', () => {
    fc.assert(
      fc.property(
        fc
          .array(candidateArbitrary, { maxLength: 8 })
          .chain((candidates) =>
            fc.tuple(
              fc.constant(candidates),
              fc.shuffledSubarray(candidates, { minLength: candidates.length }),
            ),
          ),
        ([candidates, shuffled]) => {
          const ids = (list: readonly ReplayCandidate[]) =>
            rankReplayCandidates(list, charter).map((entry) => entry.candidate.id);
          expect(ids(shuffled)).toEqual(ids(candidates));
        },
      ),
    );
  });

  it('never reads the sign, agency or anything the label is made of: only the line', () => {
    fc.assert(
      fc.property(
        fc.array(candidateArbitrary, { maxLength: 8 }),
        fc.array(goalErrorArbitrary, { minLength: 1 }),
        (candidates, noise) => {
          // Rewrite every error's signed parts from unrelated errors, keeping its goal.
          const repainted = candidates.map((candidate) => ({
            ...candidate,
            errors: candidate.errors.map((error, index) => ({
              ...(noise[index % noise.length] as GoalError),
              goal: error.goal,
            })),
          }));
          const ids = (list: readonly ReplayCandidate[]) =>
            rankReplayCandidates(list, charter).map((entry) => entry.candidate.id);
          expect(ids(repainted)).toEqual(ids(candidates));
        },
      ),
    );
  });
});
