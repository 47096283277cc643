import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { CharterArgumentError } from './charter-argument-error.js';
import { formatDuration, parseDuration } from './duration.js';

const hour = 3_600_000;

describe('parseDuration', () => {
  it('reads each unit, largest first, into milliseconds', () => {
    expect(parseDuration('48h')).toEqual(E.right(48 * hour));
    expect(parseDuration('90m')).toEqual(E.right(90 * 60_000));
    expect(parseDuration('2d')).toEqual(E.right(48 * hour));
    expect(parseDuration('1w')).toEqual(E.right(7 * 24 * hour));
    expect(parseDuration('30s')).toEqual(E.right(30_000));
    expect(parseDuration('500ms')).toEqual(E.right(500));
    expect(parseDuration('1d12h')).toEqual(E.right(36 * hour));
    expect(parseDuration('1w2d3h4m5s6ms')).toEqual(
      E.right(9 * 24 * hour + 3 * hour + 4 * 60_000 + 5_000 + 6),
    );
    expect(parseDuration('1h0m')).toEqual(E.right(hour));
  });

  it('refuses anything else, saying how to write one', () => {
    for (const text of [
      '',
      '48',
      'h',
      '48x',
      '48H',
      '48 h',
      ' 48h',
      '1.5h',
      '-1h',
      '12m1h',
      '1h1h',
      '2 d',
    ]) {
      const result = parseDuration(text);
      expect(E.isLeft(result), text).toBe(true);
      if (E.isLeft(result)) expect(result.left).toContain('is not a duration');
    }
    expect(parseDuration('48x')).toEqual(
      E.left(
        '"48x" is not a duration: write whole numbers with units w, d, h, m, s or ms, largest first, such as "48h", "90m", "2d" or "1d12h"',
      ),
    );
  });

  it('refuses a zero duration and one too long to hold exactly', () => {
    expect(parseDuration('0h')).toEqual(E.left('"0h" is not a positive duration'));
    expect(parseDuration('0d0h')).toEqual(E.left('"0d0h" is not a positive duration'));
    expect(parseDuration('99999999999999w')).toEqual(
      E.left('"99999999999999w" is too long a duration'),
    );
    expect(parseDuration(`${Number.MAX_SAFE_INTEGER}ms`)).toEqual(E.right(Number.MAX_SAFE_INTEGER));
    expect(E.isLeft(parseDuration('9007199254740992ms'))).toBe(true);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (value) => {
        const result = parseDuration(value as string);
        if (E.isRight(result)) {
          expect(Number.isSafeInteger(result.right)).toBe(true);
          expect(result.right).toBeGreaterThan(0);
        }
      }),
    );
  });
});

describe('formatDuration', () => {
  it('writes the canonical form', () => {
    expect(formatDuration(48 * hour)).toBe('2d');
    expect(formatDuration(90 * 60_000)).toBe('1h30m');
    expect(formatDuration(7 * 24 * hour)).toBe('1w');
    expect(formatDuration(36 * hour)).toBe('1d12h');
    expect(formatDuration(1)).toBe('1ms');
    expect(formatDuration(0)).toBe('0ms');
  });

  it('round-trips every positive safe integer through parseDuration', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (milliseconds) => {
        expect(parseDuration(formatDuration(milliseconds))).toEqual(E.right(milliseconds));
      }),
    );
  });

  it('throws for what no charter holds', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => formatDuration(bad)).toThrow(CharterArgumentError);
    }
  });
});

describe('parseDuration: amounts of more than one digit, and what is not a string', () => {
  it('reads every unit with a multi-digit amount', () => {
    expect(parseDuration('12w')).toEqual(E.right(12 * 7 * 24 * hour));
    expect(parseDuration('12d')).toEqual(E.right(12 * 24 * hour));
    expect(parseDuration('12h')).toEqual(E.right(12 * hour));
    expect(parseDuration('12m')).toEqual(E.right(12 * 60_000));
    expect(parseDuration('12s')).toEqual(E.right(12_000));
    expect(parseDuration('1500ms')).toEqual(E.right(1500));
  });

  it('says a value that is not a string is not a duration string, without throwing', () => {
    expect(parseDuration(48 as unknown as string)).toEqual(E.left('is not a duration string'));
  });
});

describe('formatDuration: a bad number is named in the error', () => {
  it('names the argument and the value it was given', () => {
    try {
      formatDuration(-1);
      expect.unreachable('formatDuration(-1) returned');
    } catch (error) {
      expect(CharterArgumentError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        argument: 'milliseconds',
        message: 'formatDuration takes a non-negative whole number of milliseconds, not -1',
      });
    }
  });
});
