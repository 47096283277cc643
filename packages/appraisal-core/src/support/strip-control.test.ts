import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripControl, stripControlDeep, stripControlLines } from './strip-control.js';

const unsafe = /[\p{Cc}\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/u;

describe('stripControl', () => {
  it('leaves no control or format character in any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(stripControl(text)).not.toMatch(unsafe);
      }),
    );
  });

  it('is idempotent and never lengthens text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = stripControl(text);
        expect(stripControl(once)).toBe(once);
        expect(once.length).toBeLessThanOrEqual(text.length);
      }),
    );
  });

  it('keeps printable text as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        fc.pre(!unsafe.test(text));
        expect(stripControl(text)).toBe(text);
      }),
    );
    expect(stripControl('Priya Nair — Zürich 😀')).toBe('Priya Nair — Zürich 😀');
  });

  it('turns runs of line breaks and tabs into one space, so a record cannot fake a line', () => {
    expect(stripControl('a\r\n\tb')).toBe('a b');
    expect(stripControl('a\nb\tc\u2028d')).toBe('a b c d');
  });

  it('removes an escape sequence that would recolour the terminal, and bidi overrides', () => {
    expect(stripControl('the \u001b[31mgraph\u001b[0m said')).toBe('the [31mgraph[0m said');
    expect(stripControl('abc\u202edef\u2066\u061c')).toBe('abcdef');
  });
});

describe('stripControlDeep', () => {
  it('strips every string in a record, keys included, and keeps everything else', () => {
    expect(stripControlDeep({ 'k\u0007': ['x\u001by', 3, null, { z: 'a\nb' }], n: true })).toEqual({
      k: ['xy', 3, null, { z: 'a b' }],
      n: true,
    });
  });
});

describe('stripControlLines', () => {
  const unsafeInLine = /[\p{Cc}\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/u;

  it('keeps the line breaks, normalised to \\n, and nothing else that is unsafe', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const lines = stripControlLines(text).split('\n');
        for (const line of lines) expect(line).not.toMatch(unsafeInLine);
        expect(lines).toHaveLength(text.split(/\r\n|[\r\n]/u).length);
      }),
    );
  });

  it('is stripControl line by line', () => {
    expect(stripControlLines('Dear Ana,\r\n\u001b[31myes\u001b[0m\rto Friday\n')).toBe(
      'Dear Ana,\n[31myes[0m\nto Friday\n',
    );
  });
});
