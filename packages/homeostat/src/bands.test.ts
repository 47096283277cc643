import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ageBand, countBand } from './bands.js';

const hour = 60 * 60 * 1000;
const day = 24 * hour;

describe('countBand', () => {
  it.each([
    [0, 'no'],
    [1, 'one'],
    [2, 'a few'],
    [4, 'a few'],
    [5, 'several'],
    [9, 'several'],
    [10, 'many'],
    [4000, 'many'],
  ] as const)('says %i as "%s"', (count, band) => {
    expect(countBand(count)).toBe(band);
  });

  it('never grows smaller as the count grows, and never holds a digit', () => {
    const order = ['no', 'one', 'a few', 'several', 'many'];
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(100_000), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(order.indexOf(countBand(low))).toBeLessThanOrEqual(order.indexOf(countBand(high)));
        expect(countBand(a)).not.toMatch(/\d/);
      }),
    );
  });
});

describe('ageBand', () => {
  it.each([
    [0, 'no more than an hour'],
    [hour, 'no more than an hour'],
    [hour + 1, 'over an hour'],
    [day + 1, 'over a day'],
    [7 * day + 1, 'over a week'],
    [30 * day + 1, 'over a month'],
  ] as const)('says %i ms as "%s"', (age, band) => {
    expect(ageBand(age)).toBe(band);
  });
});
