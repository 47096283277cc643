import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aucMannWhitney, type Scored } from './auc.js';

const cases = (negatives: readonly number[], positives: readonly number[]): Scored[] => [
  ...negatives.map((score) => ({ score, positive: false })),
  ...positives.map((score) => ({ score, positive: true })),
];

/** Every positive–negative pair compared, a tie counting half: the definition, by brute force. */
function pairwise(items: readonly Scored[]): number | null {
  const pos = items.filter((item) => item.positive);
  const neg = items.filter((item) => !item.positive);
  if (pos.length === 0 || neg.length === 0) return null;
  let wins = 0;
  for (const p of pos) {
    for (const n of neg) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
  }
  return wins / (pos.length * neg.length);
}

const scored = fc.array(
  fc.record({ score: fc.integer({ min: -4, max: 4 }), positive: fc.boolean() }),
  { maxLength: 40 },
);

describe('aucMannWhitney', () => {
  it('is 1 for a perfect scorer and 0 for an inverted one', () => {
    expect(aucMannWhitney(cases([1, 2, 3], [4, 5, 6]))).toBe(1);
    expect(aucMannWhitney(cases([4, 5, 6], [1, 2, 3]))).toBe(0);
  });

  it('is 0.5 for a scorer that cannot tell the classes apart', () => {
    expect(aucMannWhitney(cases([1, 4], [2, 3]))).toBe(0.5);
    expect(aucMannWhitney(cases([0, 0, 0], [0, 0]))).toBe(0.5);
  });

  it('counts a tie between the classes as one half', () => {
    // Pairs: (2>1) 1, (2=2) 0.5, (3>1) 1, (3>2) 1 → 3.5 of 4.
    expect(aucMannWhitney(cases([1, 2], [2, 3]))).toBe(0.875);
    // Ties inside one class change nothing: (1,1) vs (1,2,2) → 2 ties (0.5 each) + 4 wins… of 6.
    expect(aucMannWhitney(cases([1, 1], [1, 2, 2]))).toBeCloseTo(5 / 6, 12);
  });

  it('is null when a class is empty or a score is not a number', () => {
    expect(aucMannWhitney([])).toBeNull();
    expect(aucMannWhitney(cases([1, 2], []))).toBeNull();
    expect(aucMannWhitney(cases([], [1]))).toBeNull();
    expect(aucMannWhitney(cases([1], [Number.NaN]))).toBeNull();
  });

  it('equals the pairwise definition, ties included', () => {
    fc.assert(
      fc.property(scored, (items) => {
        const auc = aucMannWhitney(items);
        const expected = pairwise(items);
        if (expected === null) expect(auc).toBeNull();
        else expect(auc).toBeCloseTo(expected, 10);
      }),
    );
  });

  it('reverses under negated scores, ignores order and monotone rescaling', () => {
    fc.assert(
      fc.property(scored, (items) => {
        const auc = aucMannWhitney(items);
        if (auc === null) return;
        const negated = aucMannWhitney(items.map((item) => ({ ...item, score: -item.score })));
        expect((negated as number) + auc).toBeCloseTo(1, 10);
        expect(aucMannWhitney([...items].reverse())).toBeCloseTo(auc, 10);
        const rescaled = items.map((item) => ({ ...item, score: 3 * item.score ** 3 + 7 }));
        expect(aucMannWhitney(rescaled)).toBeCloseTo(auc, 10);
        expect(auc).toBeGreaterThanOrEqual(0);
        expect(auc).toBeLessThanOrEqual(1);
      }),
    );
  });
});
