import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanName, factKey, nameKey, toJsonValue, wellFormed } from './normalize-text.js';

describe('cleanName', () => {
  it('turns control characters into spaces and collapses whitespace', () => {
    expect(cleanName('  Priya\u0000\u0007 \t Nair\n')).toBe('Priya Nair');
  });

  it('is idempotent and leaves no control characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const once = cleanName(text);
        expect(cleanName(once)).toBe(once);
        expect([...once].some((char) => (char.codePointAt(0) ?? 0) < 0x20)).toBe(false);
      }),
    );
  });
});

describe('factKey', () => {
  it('ignores case, spacing and Unicode composition', () => {
    expect(factKey('Priya  Nair', 'IS AT', 'Caf\u0065\u0301')).toBe(
      factKey('priya nair', 'is at', 'Caf\u00e9'),
    );
    expect(nameKey('Ada')).toBe('ada');
  });
});

describe('wellFormed', () => {
  it('replaces lone surrogates and keeps pairs', () => {
    expect(wellFormed('a\uD800b\uDC00c\uD83D\uDE00')).toBe('a\uFFFDb\uFFFDc\uD83D\uDE00');
  });
});

describe('toJsonValue', () => {
  it('copies JSON, dropping undefined and turning non-finite numbers into null', () => {
    expect(
      toJsonValue({ a: undefined, b: [1, Number.NaN, undefined], c: { d: '\uD800' } }, 5),
    ).toEqual({
      b: [1, null, null],
      c: { d: '\uFFFD' },
    });
  });

  it('keeps a "__proto__" key as a plain member', () => {
    const copy = toJsonValue(JSON.parse('{"__proto__": {"x": 1}}'), 5) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"x":1}}');
  });

  it('refuses nesting past the limit and values JSON cannot carry', () => {
    expect(() => toJsonValue([[[1]]], 2)).toThrow(/deeper than 2/);
    expect(() => toJsonValue({ f: () => 1 }, 5)).toThrow(/not JSON/);
    expect(() => toJsonValue({ n: 1n }, 5)).toThrow(/not JSON/);
  });
});
