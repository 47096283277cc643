import { describe, expect, it } from 'vitest';
import type { GoalError } from '../schemas/goal-error.js';
import { closureLine, tallySignals, unreadableClosureLine } from './closure-line.js';

const base = {
  label: 'neutral',
  positive: 0,
  negative: 0,
  positiveSignals: 0,
  negativeSignals: 0,
  partial: false,
} as const;

describe('closureLine', () => {
  it('prints the reference line for a distressed closure with one negative signal', () => {
    expect(
      closureLine('task-1a2b3c4d', {
        ...base,
        label: 'distress',
        negative: 0.5,
        negativeSignals: 1,
      }),
    ).toBe("mecha's appraisal of task-1a2b3c4d: Distress · −0.5 (0 positive, 1 negative signal)");
  });

  it('uses the plural when the negative tally is not one', () => {
    expect(
      closureLine('task-1', { ...base, label: 'distress', negative: 2, negativeSignals: 2 }),
    ).toBe("mecha's appraisal of task-1: Distress · −2.0 (0 positive, 2 negative signals)");
    expect(closureLine('task-1', { ...base, positive: 1, positiveSignals: 1 })).toBe(
      "mecha's appraisal of task-1: +1.0 (1 positive, 0 negative signals)",
    );
  });

  it('prints no word for a neutral label and both sides of a mixed valence', () => {
    expect(
      closureLine('task-1', {
        ...base,
        label: 'distress',
        positive: 0.5,
        negative: 1,
        positiveSignals: 1,
        negativeSignals: 1,
      }),
    ).toBe("mecha's appraisal of task-1: Distress · +0.5 −1.0 (1 positive, 1 negative signal)");
  });

  it('says nothing signed for a silent closure', () => {
    expect(closureLine('task-1', base)).toBe(
      "mecha's appraisal of task-1: nothing signed (0 positive, 0 negative signals)",
    );
  });

  it('marks partial evidence with a trailing ellipsis', () => {
    expect(closureLine('task-1', { ...base, partial: true })).toBe(
      "mecha's appraisal of task-1: nothing signed… (0 positive, 0 negative signals)",
    );
    expect(
      closureLine('task-1', {
        ...base,
        label: 'pride',
        positive: 1,
        positiveSignals: 1,
        partial: true,
      }),
    ).toBe("mecha's appraisal of task-1: Pride · +1.0… (1 positive, 0 negative signals)");
  });

  it('says which when there is no reading at all, never a zero', () => {
    expect(unreadableClosureLine('task-1', 'no_session')).toBe(
      "mecha's appraisal of task-1: no session worked this task",
    );
    expect(unreadableClosureLine('task-1', 'unreadable')).toBe(
      "mecha's appraisal of task-1: its session could not be read",
    );
  });
});

describe('tallySignals', () => {
  it('counts signs above and below zero and leaves a zero-signed entry out', () => {
    const error = (sign: number): GoalError => ({
      channel: 'commitment',
      sign,
      agency: 'owner',
      visible: false,
      controllable: 'unfilled',
      cite: { kind: 'closure', closure_id: 'c-1' },
    });
    expect(tallySignals([error(0.5), error(0), error(-1), error(-0.5)])).toEqual({
      positiveSignals: 1,
      negativeSignals: 2,
    });
  });
});
