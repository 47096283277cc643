import type { TextAppraisalRecord } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { styleFor } from '../style.js';
import { ownerClock } from './format.js';
import { textAppraisalLines } from './session.js';

const plain = styleFor({ isTTY: false, env: {} });
const berlin = ownerClock('Europe/Berlin');
const base: TextAppraisalRecord = {
  v: 1,
  appraisal_id: 'ta-1',
  session_id: 's-1',
  at: '2026-09-25T11:31:00Z',
  taint: 'clean',
  expected_act: 'released_unchanged',
  interpretation: 'The reply went out as written.',
  claims_kept: 1,
  claims_dropped: {},
  goal_unresolved: false,
};

describe('textAppraisalLines', () => {
  it('shows the interpretation, the counts and the expected act', () => {
    expect(textAppraisalLines(base, plain, berlin)).toEqual([
      'text appraisal ta-1 · session s-1 · 2026-09-25 13:31 GMT+2 · clean',
      '  │ The reply went out as written.',
      '  claims 1 kept, 0 dropped by grounding · expects: released unchanged',
    ]);
  });

  it('shows grounded claims, the prediction and the judged goal when a record carries them, stripped', () => {
    const record = {
      ...base,
      taint: 'third_party',
      goal: { kind: 'task', id: 'task-1' },
      claims: [
        {
          text: 'The owner\u001b[2J asked for totals',
          cite: { kind: 'owner_message', id: 'msg-1' },
          quote: 'send\nthe totals',
        },
      ],
      prediction: 'The owner will send it \u202eunchanged.',
    } as TextAppraisalRecord;
    const lines = textAppraisalLines(record, plain, berlin);
    expect(lines).toContain('  judged against task task-1');
    expect(lines).toContain(
      '  · claim: The owner[2J asked for totals (owner message msg-1: "send the totals")',
    );
    expect(lines).toContain('  → prediction: The owner will send it unchanged.');
    expect(lines.at(-1)).toBe('  stored for you to read; it goes nowhere else');
    expect(lines[0]).toContain('not clean (third party)');
  });
});

describe('textAppraisalLines on a record with judgments, wants and lessons', () => {
  it('shows each judgment with its goal (or none), what the owner seems to want and each lesson, stripped', () => {
    const record: TextAppraisalRecord = {
      ...base,
      judgments: [
        { goal: { kind: 'charter', id: 'replies' }, outcome: 'went_well', text: 'Sent on time.' },
        { outcome: 'went_badly', text: 'The \u001b[31mtone was off.' },
      ],
      judgment_goals_unresolved: 1,
      owner_wants: 'Shorter\u0007 replies.',
      lessons: ['Keep replies under five lines.'],
    };
    const lines = textAppraisalLines(record, plain, berlin);
    expect(lines).toContain('  ◆ charter line replies: went well — Sent on time.');
    expect(lines).toContain('  ◆ no goal: went badly — The [31mtone was off.');
    expect(lines).toContain('  1 judgment named a goal mecha does not hold (recorded as no goal)');
    expect(lines).toContain('  ♦ the owner seems to want: Shorter replies.');
    expect(lines).toContain('  ✓ lesson: Keep replies under five lines.');
  });
});

describe('ownerClock', () => {
  it("shows a time in the owner's zone, to the minute, with the zone named", () => {
    expect(berlin('2026-11-30T02:31:39.763Z')).toBe('2026-11-30 03:31 GMT+1');
    expect(ownerClock('UTC')('2026-11-30T02:31:39.763Z')).toBe('2026-11-30 02:31 UTC');
    expect(ownerClock('America/New_York')('2026-07-01T03:00:00Z')).toBe('2026-06-30 23:00 EDT');
  });

  it('shows a timestamp that does not parse as written', () => {
    expect(berlin('yesterday-ish')).toBe('yesterday-ish');
  });
});
