import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, type JsonValue } from './content-hash.js';

function shuffleKeys(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(shuffleKeys);
  const entries = Object.entries(value).reverse();
  return Object.fromEntries(entries.map(([key, inner]) => [key, shuffleKeys(inner)]));
}

describe('contentHash', () => {
  it('ignores the order of keys', () => {
    expect(contentHash({ a: 1, b: [true, null] })).toBe(contentHash({ b: [true, null], a: 1 }));
  });

  it('tells different content apart', () => {
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: '1' }));
    expect(contentHash(['a', 'b'])).not.toBe(contentHash(['b', 'a']));
  });

  it('is stable under any reordering of object keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = value as JsonValue;
        expect(contentHash(shuffleKeys(json))).toBe(contentHash(json));
      }),
    );
  });
});
