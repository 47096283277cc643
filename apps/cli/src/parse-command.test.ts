import { isLeft, left, refusal, right } from '@mecha/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand, wholeNumber } from './parse-command.js';

const usage = (message: string) => left(refusal('bad_request', message));

describe('wholeNumber', () => {
  it('reads every whole number from its minimum up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (n) => {
        expect(wholeNumber(String(n), '--days')).toEqual(right(n));
      }),
    );
  });

  it('refuses anything that is not plain digits at least the minimum', () => {
    for (const text of ['0', '-1', '1.5', '1e3', ' 3', '3 ', '', 'ten', '0x10', '9999999999']) {
      expect(isLeft(wholeNumber(text, '--days'))).toBe(true);
    }
    expect(wholeNumber('0', '-n', 0)).toEqual(right(0));
  });
});

describe('parseCommand', () => {
  it('refuses an unknown option in one sentence', () => {
    const parsed = parseCommand(['--nope'], {});
    expect(isLeft(parsed)).toBe(true);
    if (isLeft(parsed)) expect(parsed.left.message).not.toContain('\n');
  });

  it('reads options and positionals', () => {
    expect(parseCommand(['x', '--days', '3'], { days: { type: 'string' } })).toEqual(
      right({ values: { days: '3' }, positionals: ['x'] }),
    );
  });
});

describe('argument messages a person can act on', () => {
  const options = {
    days: { type: 'string' as const },
    json: { type: 'boolean' as const },
    number: { type: 'string' as const, short: 'n' },
  };

  it('takes a negative number as the value it is, for the command to refuse by name', () => {
    expect(parseCommand(['--days', '-1'], options)).toMatchObject({
      right: { values: { days: '-1' } },
    });
    expect(parseCommand(['-n', '-3'], options)).toMatchObject({
      right: { values: { number: '-3' } },
    });
    expect(wholeNumber('-1', '--days')).toEqual(
      usage('--days takes a whole number from 1 to 999,999,999, not "-1"'),
    );
  });

  it('names an unknown option, with balanced quotes and a suggestion when one is close', () => {
    expect(parseCommand(['--jsno'], options)).toEqual(
      usage("unknown option '--jsno' (did you mean --json?)"),
    );
    expect(parseCommand(['--bogus'], options)).toEqual(usage("unknown option '--bogus'"));
  });

  it('says what an option takes when its value is missing or not wanted', () => {
    expect(parseCommand(['--days'], options)).toEqual(usage('--days needs a value'));
    expect(parseCommand(['--json=yes'], options)).toEqual(
      usage('--json is a switch and takes no value'),
    );
  });

  it('states the real limit of a number', () => {
    expect(wholeNumber('1000000000', '--sessions', 1, 100_000)).toEqual(
      usage('--sessions takes a whole number from 1 to 100,000, not "1000000000"'),
    );
  });
});
