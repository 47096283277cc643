import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripControlCharacters } from './strip-control-characters.js';

describe('stripControlCharacters', () => {
  it('removes an escape sequence that would recolour the terminal', () => {
    expect(stripControlCharacters('the \u001b[31mgraph\u001b[0m said')).toBe(
      'the [31mgraph[0m said',
    );
  });

  it('turns line breaks and tabs into one space', () => {
    expect(stripControlCharacters('a\r\n\tb')).toBe('a b');
  });

  it('removes bidirectional overrides', () => {
    expect(stripControlCharacters('abc\u202Edef\u2066')).toBe('abcdef');
  });

  it('keeps printable text, accents and emoji as they are', () => {
    expect(stripControlCharacters('Priya Nair — Zürich 😀')).toBe('Priya Nair — Zürich 😀');
  });

  it('never leaves a control character, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        const stripped = stripControlCharacters(text);
        expect(stripped).not.toMatch(/[\p{Cc}\u202A-\u202E\u2066-\u2069]/u);
        expect(stripControlCharacters(stripped)).toBe(stripped);
      }),
    );
  });
});
