import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { type CorpusSession, corpusBuckets, maxDailyBuckets } from '../src/pages/corpus-days.js';

// The corpus charts' buckets: every day of the window drawn, none missing, every session counted
// once, a day whose sessions could not be read unknown (never 0), and today marked as so far.

const day = 86_400_000;
const now = new Date('2026-06-15T13:30:00Z');

const session = (startedAt: string, valence: CorpusSession['valence'], label: string | null) => ({
  startedAt,
  valence,
  label,
});

describe('corpusBuckets', () => {
  it('draws every day of the window, an unread day as unknown and today as partial', () => {
    const { width, buckets } = corpusBuckets(
      [
        session('2026-06-10T09:00:00Z', { positive: 1, negative: 2 }, 'distress'),
        session('2026-06-12T09:00:00Z', null, null),
        session('2026-06-15T08:00:00Z', { positive: 0.5, negative: 0 }, null),
      ],
      { now, days: 7 },
    );
    expect(width).toBe(1);
    expect(buckets.map((bucket) => bucket.day)).toEqual([
      '2026-06-08',
      '2026-06-09',
      '2026-06-10',
      '2026-06-11',
      '2026-06-12',
      '2026-06-13',
      '2026-06-14',
      '2026-06-15',
    ]);
    expect(buckets[2]).toMatchObject({
      sessions: 1,
      valence: { positive: 1, negative: 2 },
      labels: { distress: 1 },
    });
    // Sessions began on the 12th and none could be read: unknown, not a day of zero.
    expect(buckets[4]).toMatchObject({ sessions: 1, unreadable: 1, valence: null });
    // A day nobody worked is a true zero.
    expect(buckets[3]).toMatchObject({ sessions: 0, valence: { positive: 0, negative: 0 } });
    expect(buckets.map((bucket) => bucket.partial)).toEqual([...Array(7).fill(false), true]);
    expect(buckets[7]).toMatchObject({ sessions: 1, valence: { positive: 0.5, negative: 0 } });
  });

  it('draws nothing for no session, and weeks for a window longer than the daily bars', () => {
    expect(corpusBuckets([], { now, days: 30 }).buckets).toEqual([]);
    const long = corpusBuckets([session('2025-01-01T00:00:00Z', null, null)], { now });
    expect(long.width).toBe(7);
    expect(long.buckets[0]?.day).toBe('2025-01-01');
  });

  const sessions = fc.array(
    fc.record({
      startedAt: fc
        .integer({ min: now.getTime() - 400 * day, max: now.getTime() + 2 * day })
        .map((ms) => new Date(ms).toISOString()),
      valence: fc.option(
        fc.record({
          positive: fc.integer({ min: 0, max: 40 }).map((n) => n / 4),
          negative: fc.integer({ min: 0, max: 40 }).map((n) => n / 4),
        }),
        { nil: null },
      ),
      label: fc.option(fc.constantFrom('distress', 'relief', 'pride'), { nil: null }),
    }),
    { maxLength: 60 },
  );
  const days = fc.option(fc.integer({ min: 1, max: 400 }), { nil: undefined });

  test.prop([sessions, days])(
    'counts every session once, in contiguous buckets ending with today’s, unread never as 0',
    (all, windowDays) => {
      const { width, buckets } = corpusBuckets(all, { now, days: windowDays });
      if (all.length === 0) {
        expect(buckets).toEqual([]);
        return;
      }
      expect(buckets.length).toBeLessThanOrEqual(maxDailyBuckets);
      expect(buckets.reduce((sum, bucket) => sum + bucket.sessions, 0)).toBe(all.length);
      expect(buckets.reduce((sum, bucket) => sum + bucket.unreadable, 0)).toBe(
        all.filter((one) => one.valence === null).length,
      );
      const labelled = buckets.reduce(
        (sum, bucket) => sum + Object.values(bucket.labels).reduce((a, b) => a + b, 0),
        0,
      );
      expect(labelled).toBe(all.filter((one) => one.valence !== null && one.label !== null).length);
      buckets.forEach((bucket, index) => {
        if (index > 0) {
          const gap = Date.parse(bucket.day) - Date.parse(buckets[index - 1]?.day ?? '');
          expect(gap).toBe(width * day);
        }
        expect(bucket.partial).toBe(index === buckets.length - 1);
        if (bucket.sessions > 0 && bucket.unreadable === bucket.sessions) {
          expect(bucket.valence).toBeNull();
        } else expect(bucket.valence).not.toBeNull();
      });
      const last = Date.parse(buckets[buckets.length - 1]?.day ?? '');
      const today = Date.parse(now.toISOString().slice(0, 10));
      expect(today - last).toBeGreaterThanOrEqual(0);
      expect(today - last).toBeLessThan(width * day);
    },
  );
});
