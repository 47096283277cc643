import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chronological, firstPerKey } from './record-order.js';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 1000);
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

describe('chronological', () => {
  it('orders by instant, not by text; one instant written two ways is a tie kept in store order', () => {
    const list = [
      { id: 'c', at: '2026-01-01T00:02:00Z' },
      { id: 'a', at: '2026-01-01T01:00:00+01:00' },
      { id: 'b', at: '2026-01-01T00:00:00.000Z' },
      { id: 'd', at: '2025-12-31T23:59:00Z' },
    ];
    expect(chronological(list).map((r) => r.id)).toEqual(['d', 'a', 'b', 'c']);
    expect(list.map((r) => r.id)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('is sorted by time, stable on ties, and a permutation of its input', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(5), { maxLength: 12 }), (minutes) => {
        const list = minutes.map((minute, index) => ({ index, at: at(minute) }));
        const sorted = chronological(list);
        expect([...sorted].sort((x, y) => x.index - y.index)).toEqual(list);
        for (let i = 1; i < sorted.length; i += 1) {
          const [before, after] = [sorted[i - 1], sorted[i]];
          if (before === undefined || after === undefined) continue;
          expect(Date.parse(before.at)).toBeLessThanOrEqual(Date.parse(after.at));
          if (before.at === after.at) expect(before.index).toBeLessThan(after.index);
        }
      }),
      { numRuns: runs },
    );
  });
});

describe('firstPerKey', () => {
  it('keeps the earliest record per key, the first in store order on a tie, and skips records without a key', () => {
    const list = [
      { key: 'x', n: 1, at: at(3) },
      { key: 'x', n: 2, at: at(1) },
      { key: 'y', n: 3, at: at(2) },
      { key: 'y', n: 4, at: at(2) },
      { key: undefined, n: 5, at: at(0) },
    ];
    const found = firstPerKey(list, (record) => record.key);
    expect([...found.entries()].map(([key, record]) => [key, record.n])).toEqual([
      ['x', 2],
      ['y', 3],
    ]);
  });
});
