import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { task } from '../__fixtures__/records.js';
import { type Label, labelSchema } from '../schemas/goal-error.js';
import { contributionTable } from './contribution-table.js';
import {
  cutShortRows,
  followUpFor,
  isCutShort,
  residueLabels,
  stagesFollowUp,
} from './follow-up.js';
import { type SignedEntry, signEntry, signedRows } from './signed-entry.js';

const ceiling = signEntry('ceiling', { kind: 'counter', name: 'turn_ceiling' }, undefined);
const rejected = signEntry('draftRejected', { kind: 'draft', draft_id: 'd-1' }, undefined);
const boredom = signEntry('boredomNotice', { kind: 'counter', name: 'boredom_notice' }, undefined);

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

  it('reads cut short only from the rows that sign a stop cause on the counter channel', () => {
    const counters = [...cutShortRows].flatMap((id) => contributionTable[id].counters).sort();
    expect(counters).toEqual([
      'cost_ceiling',
      'empty_output',
      'final_failed_call',
      'loop_stop',
      'token_ceiling',
      'turn_ceiling',
    ]);
    expect(isCutShort([boredom])).toBe(false);
    expect(isCutShort([rejected])).toBe(false);
    // The owner's stop names a stop cause too, but it is an intervention, not a cut-off run.
    expect(cutShortRows.has('ownerStop')).toBe(false);
  });

  it('reads the row that signed an entry, not what its cite says', () => {
    const mislabelled: SignedEntry = { row: 'boredomNotice', error: ceiling.error };
    expect(isCutShort([mislabelled])).toBe(false);
    expect(isCutShort([{ row: 'ceiling', error: boredom.error }])).toBe(true);
  });

  it('is cut short exactly when some entry comes from a stop-cause counter row', () => {
    const ids = signedRows.map(([id]) => id);
    fc.assert(
      fc.property(fc.subarray(ids), (rows) => {
        const entries = rows.map((id) => signEntry(id, { kind: 'counter', name: 'x' }, undefined));
        const expected = rows.some((id) => {
          const row = contributionTable[id];
          return row.channel === 'counter' && row.sign < 0 && row.stopCauses.length > 0;
        });
        expect(isCutShort(entries)).toBe(expected);
      }),
    );
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
    const closed = signEntry('taskClosedDone', { kind: 'closure', closure_id: 'c-1' }, undefined);
    const dropped = signEntry(
      'taskClosedDropped',
      { kind: 'closure', closure_id: 'c-2' },
      undefined,
    );
    const sent = signEntry('draftSentUnchanged', { kind: 'draft', draft_id: 'd-2' }, undefined);
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
