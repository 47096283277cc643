import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appraisalFlags, flagSet, flagsForOn, flagsWith, flagsWithBackground } from './controls.js';

describe('appraisal flags', () => {
  it('are writes=1, recall=2, background=4', () => {
    expect(appraisalFlags).toEqual({ writes: 1, recall: 2, background: 4 });
  });

  it('on keeps the background setting and turns writes and recall on', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), (flags) => {
        const on = flagSet(flagsForOn(flags));
        expect(on.writes && on.recall).toBe(true);
        expect(on.background).toBe(flagSet(flags).background);
      }),
    );
  });

  it('switching some flags sets exactly those and leaves the others alone', () => {
    const switches = fc.record(
      { writes: fc.boolean(), recall: fc.boolean(), background: fc.boolean() },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), switches, (flags, asked) => {
        const before = flagSet(flags);
        const after = flagSet(flagsWith(flags, asked));
        for (const name of ['writes', 'recall', 'background'] as const) {
          expect(after[name]).toBe(asked[name] ?? before[name]);
        }
      }),
    );
  });

  it('switching background leaves writes and recall alone', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), fc.boolean(), (flags, on) => {
        const next = flagSet(flagsWithBackground(flags, on));
        expect(next.background).toBe(on);
        expect([next.writes, next.recall]).toEqual([flagSet(flags).writes, flagSet(flags).recall]);
      }),
    );
  });
});
