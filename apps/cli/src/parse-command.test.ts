import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand, wholeNumber } from './parse-command.js';

describe('wholeNumber', () => {
  it('reads every whole number from its minimum up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (n) => {
        expect(wholeNumber(String(n), '--days')).toEqual({ ok: true, value: n });
      }),
    );
  });

  it('refuses anything that is not plain digits at least the minimum', () => {
    for (const text of ['0', '-1', '1.5', '1e3', ' 3', '3 ', '', 'ten', '0x10', '9999999999']) {
      expect(wholeNumber(text, '--days').ok).toBe(false);
    }
    expect(wholeNumber('0', '-n', 0)).toEqual({ ok: true, value: 0 });
  });
});

describe('parseCommand', () => {
  it('refuses an unknown option in one sentence', () => {
    const parsed = parseCommand(['--nope'], {});
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).not.toContain('\n');
  });

  it('reads options and positionals', () => {
    expect(parseCommand(['x', '--days', '3'], { days: { type: 'string' } })).toEqual({
      ok: true,
      values: { days: '3' },
      positionals: ['x'],
    });
  });
});
