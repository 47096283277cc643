import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goalErrorArbitrary } from '../__fixtures__/evidence-arbitraries.js';
import { goalError } from '../__fixtures__/evidence-builders.js';
import { sumValence, valence } from './valence.js';

describe('valence', () => {
  it('sums the two sides apart: a sent draft and two rejections read +1.0 and 2.0 negative', () => {
    const errors = [
      goalError({ sign: 1, channel: 'edit' }),
      goalError({ sign: -1 }),
      goalError({ sign: -1 }),
    ];
    expect(valence(errors)).toEqual({ positive: 1, negative: 2, partial: false });
  });

  it('reads a silent run as zero on both sides', () => {
    expect(valence([])).toEqual({ positive: 0, negative: 0, partial: false });
    expect(valence([goalError({ sign: 0 })])).toEqual({ positive: 0, negative: 0, partial: false });
  });

  it('carries the partial marker it is given', () => {
    expect(valence([goalError()], { partial: true }).partial).toBe(true);
  });

  it('sums magnitudes that are no multiple of 2^-20 the same in every order', () => {
    // Added left to right, 0.1 + 0.2 + 0.3 and 0.3 + 0.2 + 0.1 differ in the last bit.
    const errors = [0.1, 0.2, 0.3, -0.1, -0.7, 0.5].map((sign) => goalError({ sign }));
    const reversed = [...errors].reverse();
    expect(valence(reversed)).toEqual(valence(errors));
    expect(valence(errors).positive).toBeCloseTo(1.1, 12);
    expect(valence(errors).negative).toBeCloseTo(0.8, 12);
  });
});

describe('valence: the table’s constants are summed exactly', () => {
  it('keeps the halves exact beside decimal magnitudes: 0.5 with 0.3, 0.6, 0.7 and 0.9 reads 3', () => {
    // The decimals sum to 2.5 in ascending order; the table's 0.5 is added to that exactly. Fed
    // through one floating-point sum with the decimals, the same five read 2.9999999999999996.
    const errors = [0.3, 0.5, 0.9, 0.7, 0.6].map((sign) => goalError({ sign }));
    expect(valence(errors).positive).toBe(3);
    expect(valence(errors.map((error) => ({ ...error, sign: -error.sign }))).negative).toBe(3);
  });
});

const errorsArbitrary = fc.array(goalErrorArbitrary, { maxLength: 20 });

describe('valence: properties', () => {
  it('is deterministic and exactly the same in every order', () => {
    const permuted = errorsArbitrary.chain((errors) =>
      fc.tuple(
        fc.constant(errors),
        fc.shuffledSubarray(errors, { minLength: errors.length, maxLength: errors.length }),
      ),
    );
    fc.assert(
      fc.property(permuted, ([errors, shuffled]) => {
        expect(valence(shuffled)).toEqual(valence(errors));
      }),
    );
  });

  it('sums decimal magnitudes exactly the same in every order', () => {
    const decimal = fc
      .integer({ min: -1000, max: 1000 })
      .map((units) => goalError({ sign: units / 1000 }));
    const permuted = fc
      .array(decimal, { maxLength: 30 })
      .chain((errors) =>
        fc.tuple(
          fc.constant(errors),
          fc.shuffledSubarray(errors, { minLength: errors.length, maxLength: errors.length }),
        ),
      );
    fc.assert(
      fc.property(permuted, ([errors, shuffled]) => {
        expect(valence(shuffled)).toEqual(valence(errors));
      }),
    );
  });

  it('never nets: each side sums only its own signs and neither is ever below zero', () => {
    fc.assert(
      fc.property(errorsArbitrary, (errors) => {
        const result = valence(errors);
        const positive = errors
          .filter((error) => error.sign > 0)
          .reduce((sum, error) => sum + error.sign, 0);
        const negative = errors
          .filter((error) => error.sign < 0)
          .reduce((sum, error) => sum - error.sign, 0);
        expect(result.positive).toBeGreaterThanOrEqual(0);
        expect(result.negative).toBeGreaterThanOrEqual(0);
        expect(result.positive).toBeCloseTo(positive, 9);
        expect(result.negative).toBeCloseTo(negative, 9);
      }),
    );
  });

  it('grows both sides when a matched positive and negative are added, instead of cancelling', () => {
    const magnitude = fc.integer({ min: 1, max: 4 }).map((units) => units / 4);
    fc.assert(
      fc.property(errorsArbitrary, magnitude, (errors, size) => {
        const before = valence(errors);
        const after = valence([...errors, goalError({ sign: size }), goalError({ sign: -size })]);
        expect(after.positive).toBeCloseTo(before.positive + size, 9);
        expect(after.negative).toBeCloseTo(before.negative + size, 9);
      }),
    );
  });
});

describe('sumValence: valence summed across sessions', () => {
  // Magnitudes on the contribution table's grid (whole multiples of 2^-20), where summing
  // per session and then across sessions is exact.
  const tableError = fc
    .tuple(goalErrorArbitrary, fc.integer({ min: -(2 ** 20), max: 2 ** 20 }))
    .map(([error, units]) => ({ ...error, sign: units / 2 ** 20 }));
  const sessionErrors = fc.array(
    fc.record({
      errors: fc.array(tableError, { maxLength: 6 }),
      partial: fc.boolean(),
    }),
    { maxLength: 8 },
  );

  it('equals one valence over every session’s errors (on the table’s grid), partial when any was', () => {
    fc.assert(
      fc.property(sessionErrors, (sessions) => {
        const summed = sumValence(sessions.map((each) => valence(each.errors, each)));
        const whole = valence(
          sessions.flatMap((each) => each.errors),
          { partial: sessions.some((each) => each.partial) },
        );
        expect(summed).toEqual(whole);
      }),
      { numRuns: Number(process.env.MECHA_PROPERTY_RUNS ?? 300) },
    );
  });

  it('does not depend on the order of the readings, and reads nothing as zero', () => {
    const readings = [0.1, 0.2, 0.3].map((positive) => ({ positive, negative: positive / 3 }));
    expect(sumValence([...readings].reverse())).toEqual(sumValence(readings));
    expect(sumValence([])).toEqual({ positive: 0, negative: 0, partial: false });
  });
});
