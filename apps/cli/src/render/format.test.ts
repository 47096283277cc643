import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { count, plural, wrapText } from './format.js';

describe('format', () => {
  it('never prints an absent count as 0', () => {
    expect(count(null)).toBe('unknown');
    expect(count(0)).toBe('0');
    expect(plural(null, 'session')).toBe('unknown sessions');
    expect(plural(1, 'session')).toBe('1 session');
  });

  it('wraps prose without losing or reordering a word', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 60 }), (words) => {
        const lines = wrapText(words.join(' '), '  │ ', 40);
        expect(
          lines
            .map((line) => line.slice(4))
            .join(' ')
            .split(' ')
            .filter(Boolean),
        ).toEqual(words);
        for (const line of lines)
          expect(line.length <= 40 || !line.slice(4).includes(' ')).toBe(true);
      }),
    );
  });
});
