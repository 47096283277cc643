import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { task } from '../__fixtures__/records.js';
import { type GoalError, type Label, labelSchema } from '../schemas/goal-error.js';
import {
  cutShortCounters,
  followUpFor,
  isCutShort,
  residueLabels,
  stagesFollowUp,
} from './follow-up.js';

const ceiling: GoalError = {
  channel: 'counter',
  sign: -0.5,
  agency: 'owner',
  visible: false,
  controllable: 'unfilled',
  cite: { kind: 'counter', name: 'turn_ceiling' },
};
const rejected: GoalError = {
  channel: 'edit',
  sign: -1,
  agency: 'owner',
  visible: false,
  controllable: 'unfilled',
  cite: { kind: 'draft', draft_id: 'd-1' },
};
const boredom: GoalError = { ...ceiling, cite: { kind: 'counter', name: 'boredom_notice' } };

describe('stagesFollowUp', () => {
  it('does not stage one for distress alone', () => {
    expect(stagesFollowUp('done', 'distress', [rejected])).toBe(false);
  });

  it('stages one for an accepted done that was cut short by a ceiling', () => {
    expect(stagesFollowUp('done', 'distress', [ceiling])).toBe(true);
  });

  it('never stages one for a dropped closure, whatever the label', () => {
    for (const label of labelSchema.options) {
      expect(stagesFollowUp('dropped', label, [ceiling, rejected])).toBe(false);
    }
  });

  it('stages one for a done whose label names residue', () => {
    expect(stagesFollowUp('done', 'regret', [])).toBe(true);
    expect(stagesFollowUp('done', 'disappointment', [])).toBe(true);
    expect(stagesFollowUp('done', 'pride', [])).toBe(false);
    expect(stagesFollowUp('done', 'neutral', [])).toBe(false);
  });

  it('reads cut short only from a negative stop-cause counter', () => {
    expect([...cutShortCounters].sort()).toEqual([
      'cost_ceiling',
      'empty_output',
      'final_failed_call',
      'loop_stop',
      'token_ceiling',
      'turn_ceiling',
    ]);
    expect(isCutShort([boredom])).toBe(false);
    expect(isCutShort([{ ...ceiling, channel: 'intervention' }])).toBe(false);
    expect(isCutShort([{ ...ceiling, sign: 0 }])).toBe(false);
  });

  it('matches the label gate: residue labels stage, no other label does without cut short', () => {
    fc.assert(
      fc.property(fc.constantFrom(...labelSchema.options), (label: Label) => {
        expect(stagesFollowUp('done', label, [rejected])).toBe(residueLabels.has(label));
      }),
    );
  });
});

describe('followUpFor', () => {
  it('builds the follow-up from the id, the label and the channels fired', () => {
    const followUp = followUpFor(task('task-1a2b', { projectId: 'project-aurora' }), 'distress', [
      ceiling,
      rejected,
    ]);
    expect(followUp).toEqual({
      original_task_id: 'task-1a2b',
      project_id: 'project-aurora',
      label: 'distress',
      cut_short: true,
      channels: ['edit', 'counter'],
      title: 'Follow up on task-1a2b: distress, cut short (edit, counter)',
    });
  });

  it('names only the channels that carried a negative signal, not a credit or a zero entry', () => {
    const closed: GoalError = {
      channel: 'commitment',
      sign: 0.5,
      agency: 'owner',
      visible: false,
      controllable: 'unfilled',
      cite: { kind: 'closure', closure_id: 'c-1' },
    };
    const dropped: GoalError = { ...closed, sign: 0 };
    const sent: GoalError = { ...rejected, channel: 'intervention', sign: 1 };
    const followUp = followUpFor({ id: 'task-3' }, 'regret', [closed, dropped, sent, rejected]);
    expect(followUp.channels).toEqual(['edit']);
    expect(followUp.title).toBe('Follow up on task-3: regret (edit)');
  });

  it('names residue when the label is neutral and nothing else says more', () => {
    expect(followUpFor({ id: 'task-2' }, 'neutral', []).title).toBe('Follow up on task-2: residue');
  });

  it('never carries the task name, whatever it says', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.constantFrom(...labelSchema.options),
        fc.subarray([ceiling, rejected, boredom]),
        (words, label, errors) => {
          const title = `TITLE<${words}>`;
          const row = task('task-9', { title, projectId: 'project-1' });
          const followUp = followUpFor(row, label, errors);
          const written = JSON.stringify(followUp);
          expect(written).not.toContain('TITLE<');
          expect(written.includes(JSON.stringify(title).slice(1, -1))).toBe(false);
        },
      ),
    );
  });
});
