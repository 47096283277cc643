import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { peakReading } from './peak-reading.js';

describe('peakReading', () => {
  it('is absent, not zero, when no turn was read', () => {
    expect(peakReading([])).toBeUndefined();
    expect(peakReading([undefined, undefined])).toBeUndefined();
  });

  it('takes the maximum over turns, skipping unread ones', () => {
    expect(peakReading([1200, undefined, 5400, 3000])).toBe(5400);
  });

  it('is never below any reading and is one of them', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(), { nil: undefined }), { minLength: 1 }), (turns) => {
        const read = turns.filter((turn): turn is number => turn !== undefined);
        const peak = peakReading(turns);
        if (read.length === 0) {
          expect(peak).toBeUndefined();
        } else {
          expect(read).toContain(peak);
          for (const reading of read) expect(peak).toBeGreaterThanOrEqual(reading);
        }
      }),
    );
  });
});
