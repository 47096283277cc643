import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appraisalChip } from './appraisal-chip.js';
import { appraiseRun } from './appraise-run.js';
import { badgeAfter, statusBadge } from './status-badge.js';

const at = '2026-09-25T09:00:00.000Z';
const start = {
  v: 1,
  at,
  run_id: 'r-1',
  type: 'run_start',
  session_id: 's-1',
  surface: 'tui',
  session_kind: 'ordinary',
} as const;

describe('statusBadge', () => {
  it('shows a negative live reading in amber, with the label word before the number', () => {
    const reading = appraiseRun([
      start,
      { v: 1, at, run_id: 'r-1', type: 'run_end', stop_cause: 'turn_ceiling' },
    ]);
    expect(statusBadge(reading)).toMatchObject({
      text: 'distress \u22120.5',
      tone: 'amber',
      partial: false,
    });
  });

  it('marks a compacted run with a trailing … and no word', () => {
    const reading = appraiseRun([
      start,
      { v: 1, at, run_id: 'r-1', type: 'compaction', turn: 3 },
      { v: 1, at, run_id: 'r-1', type: 'counter', name: 'boredom_notice', value: 1 },
      { v: 1, at, run_id: 'r-1', type: 'run_end', stop_cause: 'completed' },
    ]);
    expect(statusBadge(reading)).toMatchObject({
      text: '\u22120.5\u2026',
      tone: 'amber',
      partial: true,
    });
  });

  it('is grey on a positive-only reading and absent when nothing was signed', () => {
    expect(statusBadge({ valence: { positive: 1, negative: 0 }, label: 'pride' })).toMatchObject({
      text: 'pride +1.0',
      tone: 'grey',
    });
    expect(statusBadge({ valence: { positive: 0, negative: 0, partial: true } })).toBeUndefined();
  });

  it('agrees with the chip on every reading: same text, amber exactly when the chip is negative', () => {
    const label = fc.constantFrom(
      undefined,
      'neutral',
      'distress',
      'pride',
      'anger',
      'frustration',
    );
    const side = fc.constantFrom(0, 0.5, 1, 1.5, 2);
    fc.assert(
      fc.property(side, side, fc.boolean(), label, (positive, negative, partial, word) => {
        const reading = { valence: { positive, negative, partial }, label: word as never };
        const chip = appraisalChip(reading);
        const badge = statusBadge(reading);
        expect(badge?.text).toBe(chip?.text);
        if (badge !== undefined) {
          expect(badge.tone === 'amber').toBe(chip?.tone === 'negative');
          expect(badge.text.endsWith('\u2026')).toBe(partial);
        }
      }),
    );
  });
});

describe('badgeAfter: the clearing rules', () => {
  const reading = { valence: { positive: 0, negative: 0.5 }, label: 'distress' as const };
  it('shows the finished run, and clears on the next run’s start and on /clear', () => {
    const shown = badgeAfter(undefined, { type: 'run_end', reading });
    expect(shown?.text).toBe('distress \u22120.5');
    expect(badgeAfter(shown, { type: 'run_start' })).toBeUndefined();
    expect(badgeAfter(shown, { type: 'clear' })).toBeUndefined();
    expect(
      badgeAfter(shown, { type: 'run_end', reading: { valence: { positive: 0, negative: 0 } } }),
    ).toBeUndefined();
  });
});
