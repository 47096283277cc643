import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

/** The same object with its keys inserted in reverse order, at every depth. */
function reversed(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(reversed);
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .reverse()
      .map(([key, member]) => [key, reversed(member)]),
  );
}

describe('canonical JSON', () => {
  it('gives one text for one value, whatever order the keys were written in', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(reversed(value))).toBe(canonicalJson(value));
      }),
    );
  });

  it('round-trips: parsing the text and writing it again changes nothing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it('sorts keys and writes no whitespace', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: 'x' })).toBe(
      '{"a":"x","b":[1,{"c":2,"d":1}]}',
    );
  });
});
