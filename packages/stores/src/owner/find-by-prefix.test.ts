import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findByPrefix } from './find-by-prefix.js';

const id = fc.stringMatching(/^[a-c]{1,4}$/);

describe('findByPrefix', () => {
  it('prefers an exact id over longer ids it is a prefix of', () => {
    expect(findByPrefix(['ab', 'abc', 'abd'], 'ab')).toEqual({ state: 'found', id: 'ab' });
  });

  it('names every candidate when a prefix is ambiguous, and none when nothing starts with it', () => {
    expect(findByPrefix(['abc', 'abd', 'b'], 'ab')).toEqual({
      state: 'ambiguous',
      candidates: ['abc', 'abd'],
    });
    expect(findByPrefix(['abc'], 'x')).toEqual({ state: 'none' });
  });

  it('finds an id only when it starts with the query, and exactly when one id could be meant', () => {
    fc.assert(
      fc.property(fc.uniqueArray(id, { maxLength: 8 }), id, (ids, query) => {
        const match = findByPrefix(ids, query);
        const under = ids.filter((each) => each.startsWith(query));
        if (match.state === 'found') {
          expect(match.id.startsWith(query)).toBe(true);
          expect(ids.includes(query) ? match.id === query : under.length === 1).toBe(true);
        } else if (match.state === 'none') {
          expect(under).toEqual([]);
        } else {
          expect(ids.includes(query)).toBe(false);
          expect(match.candidates).toEqual(under);
          expect(under.length).toBeGreaterThan(1);
        }
      }),
    );
  });
});
