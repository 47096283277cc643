import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordOverlap } from './word-overlap.js';

describe('word overlap', () => {
  it('is the share of the query words present, in millionths', () => {
    expect(wordOverlap('payments outage', 'The payments outage ended.')).toBe(1_000_000);
    expect(wordOverlap('payments outage', 'The payments ended.')).toBe(500_000);
    expect(wordOverlap('', 'anything')).toBe(0);
    fc.assert(
      fc.property(fc.string(), fc.string(), (query, text) => {
        const value = wordOverlap(query, text);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1_000_000);
      }),
    );
  });
});
