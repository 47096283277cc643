import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripControl, stripControlDeep } from './sanitize.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const unsafe = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

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
  });

  it('turns line breaks and tabs into spaces, so a record cannot fake a line', () => {
    expect(stripControl('a\nb\tc\r\u001b[2J\u202eevil')).toBe('a b c[2Jevil');
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
