import { seededRandom } from '@mecha/stores';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Scored } from './auc.js';
import { aucInterval, quantile } from './bootstrap-interval.js';

/** A standard normal draw (Box–Muller) from a seeded source. */
function normal(random: { next(): number }): number {
  const u = 1 - random.next();
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** The standard normal CDF (Abramowitz–Stegun 7.1.26 on erf; error below 1.5e-7). */
function phi(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

describe('quantile', () => {
  it('interpolates between neighbours', () => {
    expect(quantile([0, 10], 0.5)).toBe(5);
    expect(quantile([1, 2, 3, 4, 5], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4, 5], 1)).toBe(5);
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2);
  });
});

describe('aucInterval', () => {
  it('states its resamples, level and seed, and gives the same interval for the same seed', () => {
    const cases: Scored[] = [0, 1, 1, 2, 3, 3, 4].map((score, index) => ({
      score,
      positive: index % 2 === 0,
    }));
    const first = aucInterval(cases, { seed: 'fixed', resamples: 300 });
    expect(first).toMatchObject({ resamples: 300, level: 0.95, seed: 'fixed' });
    expect(first.positives).toBe(4);
    expect(first.negatives).toBe(3);
    expect(aucInterval(cases, { seed: 'fixed', resamples: 300 })).toEqual(first);
    expect(aucInterval(cases, { seed: 'other', resamples: 300 })).not.toEqual(first);
  });

  it('has no interval when a class is empty', () => {
    const interval = aucInterval([{ score: 1, positive: true }], { seed: 's', resamples: 10 });
    expect(interval).toMatchObject({ auc: null, low: null, high: null });
  });

  it('collapses to the point when every score ties, and to 1 for a perfect scorer', () => {
    const tied = [1, 2, 3, 4].map((n) => ({ score: 0, positive: n % 2 === 0 }));
    expect(aucInterval(tied, { seed: 's', resamples: 50 })).toMatchObject({
      auc: 0.5,
      low: 0.5,
      high: 0.5,
    });
    const perfect = [1, 2, 3, 4].map((n) => ({ score: n, positive: n > 2 }));
    expect(aucInterval(perfect, { seed: 's', resamples: 50 })).toMatchObject({
      auc: 1,
      low: 1,
      high: 1,
    });
  });

  it('brackets its own point estimate, within [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ score: fc.integer({ min: 0, max: 3 }), positive: fc.boolean() }), {
          minLength: 2,
          maxLength: 30,
        }),
        fc.string(),
        (cases, seed) => {
          const interval = aucInterval(cases, { seed, resamples: 40 });
          if (interval.auc === null) return;
          expect(interval.low).toBeGreaterThanOrEqual(0);
          expect(interval.high).toBeLessThanOrEqual(1);
          expect(interval.low as number).toBeLessThanOrEqual(interval.high as number);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('covers the true AUC about 95% of the time on synthetic data', () => {
    // Negatives ~ N(0, 1), positives ~ N(1, 1): the true AUC is Φ(1/√2) ≈ 0.7602.
    const truth = phi(1 / Math.SQRT2);
    expect(truth).toBeCloseTo(0.7602, 3);
    const random = seededRandom('coverage');
    const datasets = 200;
    let covered = 0;
    for (let dataset = 0; dataset < datasets; dataset += 1) {
      const cases: Scored[] = [];
      for (let i = 0; i < 60; i += 1) cases.push({ score: normal(random), positive: false });
      for (let i = 0; i < 60; i += 1) cases.push({ score: 1 + normal(random), positive: true });
      const interval = aucInterval(cases, { seed: `d${dataset}`, resamples: 400 });
      if ((interval.low as number) <= truth && truth <= (interval.high as number)) covered += 1;
    }
    // Binomial sd at 200 datasets is 1.5 points; a percentile bootstrap runs slightly narrow.
    expect(covered / datasets).toBeGreaterThan(0.88);
    expect(covered / datasets).toBeLessThanOrEqual(0.99);
  });
});
