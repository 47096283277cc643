import { describe, expect, it } from 'vitest';
import {
  closure,
  counter,
  type EvidenceParts,
  end,
  evidence,
  intervention,
  outcome,
  ownerOutcome,
  parked,
  reflection,
  request,
  settled,
  staged,
  start,
  stepCheck,
  workflow,
} from '../__fixtures__/evidence-builders.js';
import { stopCauseSchema } from '../schemas/transcript.js';
import {
  type ContributionRow,
  type ContributionRowId,
  contributionTable,
} from './contribution-table.js';
import { contributions } from './contributions.js';
import { deriveLabel } from './derive-label.js';
import { labelFactsFor } from './label-facts-for.js';

const rows: readonly [string, ContributionRow][] = Object.entries(contributionTable);

describe('contributionTable', () => {
  it('holds signs within [−1, 1], in steps of a half', () => {
    for (const [, row] of rows) {
      if (row.kind !== 'signed') continue;
      expect(Math.abs(row.sign)).toBeLessThanOrEqual(1);
      expect(Number.isInteger(row.sign * 2)).toBe(true);
    }
  });

  it('holds the seed’s constants for the rows it states', () => {
    const t = contributionTable;
    expect([t.draftSentUnchanged.sign, t.draftSentEdited.sign, t.draftRejected.sign]).toEqual([
      1, -1, -1,
    ]);
    expect([t.questionAnsweredCompleted.sign, t.questionAbandoned.sign]).toEqual([0.5, -0.5]);
    expect([
      t.loopStop.sign,
      t.emptyOutput.sign,
      t.finalFailedCall.sign,
      t.stepCheckFailed.sign,
    ]).toEqual([-1, -1, -1, -1]);
    expect([t.ceiling.sign, t.ceiling.agency, t.boredomNotice.sign]).toEqual([-0.5, 'owner', -0.5]);
    expect([t.reflectorCorrection.sign, t.reflectorCorrection.agency]).toEqual([-1, 'owner']);
    expect([t.taskClosedDone.sign, t.taskClosedDropped.sign, t.taskReopenedAfterDone.sign]).toEqual(
      [0.5, 0, -1],
    );
    expect([
      t.workflowClosed.sign,
      t.workflowCancelled.sign,
      t.workflowReopenedAfterClose.sign,
    ]).toEqual([0.5, -0.5, -1]);
    expect([t.workflowArtifactCheckFailed.sign, t.workflowArtifactCheckFailed.agency]).toEqual([
      -1,
      'self',
    ]);
    expect([t.ownerOutcomeNegative.sign, t.ownerOutcomeNegative.channel]).toEqual([
      -1,
      'commitment',
    ]);
  });

  it('never produces the reserved setpoint channel, and only old records carry the appraisal one', () => {
    for (const [, row] of rows) {
      if (row.kind === 'silent') continue;
      expect(row.channel).not.toBe('setpoint');
      expect(row.channel === 'appraisal').toBe(row.kind === 'recorded');
    }
  });

  it('names every stop cause in exactly one row', () => {
    for (const cause of stopCauseSchema.options) {
      const naming = rows.filter(
        ([, row]) => row.kind !== 'recorded' && row.stopCauses.includes(cause),
      );
      expect(naming.map(([id]) => id)).toHaveLength(1);
    }
  });

  it('names every counter in at most one row, and cites a stop cause by the counter beside it', () => {
    const counters = rows.flatMap(([, row]) => (row.kind === 'recorded' ? [] : row.counters));
    expect(new Set(counters).size).toBe(counters.length);
    for (const [, row] of rows) {
      if (row.kind !== 'signed' || row.counters.length === 0 || row.stopCauses.length === 0)
        continue;
      expect(row.counters).toHaveLength(row.stopCauses.length);
    }
  });

  it('keeps the excluded counters in a row that signs nothing', () => {
    expect(contributionTable.excludedCounters.kind).toBe('silent');
    expect(contributionTable.excludedCounters.counters).toEqual([
      'tool_denied',
      'blocked_sends',
      'context_overflows',
      'tool_errors',
    ]);
  });

  it('lets the live readout produce exactly the rows read from the transcript alone', () => {
    for (const [, row] of rows) {
      if (row.kind === 'silent') continue;
      expect(row.live).toBe(row.source === 'transcript' && row.alsoReads.length === 0);
    }
  });

  it('records a choice wherever the seed states no sign or agency', () => {
    const t = contributionTable;
    for (const row of [
      t.draftSentUnchanged,
      t.questionAnsweredCompleted,
      t.requestClosedWithoutDraft,
      t.boredomNotice,
      t.steer,
      t.deny,
      t.ownerStop,
      t.ownerOutcomeNegative,
      t.legacyAppraiserVerdict,
    ]) {
      expect(row.choice?.length ?? 0).toBeGreaterThan(20);
    }
  });
});

// Exposure is a computed fact about who the outcome reached. Each row is fired here through
// `contributions` from the records that produce it, and the signed error it yields must say
// whether the outcome reached anyone: the generated docs are not the only guard of `visible`.
describe('contributionTable: exposure, read through the errors each row signs', () => {
  const reopened = (from: 'done' | 'dropped') => [
    closure('close-1', 'next', from, { at: 10 }),
    closure('reopen-1', from, 'next', { at: 11, reopens: 'close-1' }),
  ];
  const answeredThenCompleted = {
    transcript: [
      start('r-1', 0),
      end('r-1', 'parked', 1),
      start('r-2', 3),
      end('r-2', 'completed', 4),
    ],
    questions: [parked('q-1'), settled('q-1', 'answered', 2)],
  };
  const wf = workflow('wf-1', 'started', 0);
  const scenarios: readonly [ContributionRowId, EvidenceParts][] = [
    ['draftSentEdited', { outbox: [staged('d-1'), outcome('d-1', 'sent_edited')] }],
    ['draftRejected', { outbox: [staged('d-1'), outcome('d-1', 'rejected')] }],
    ['questionAnsweredCompleted', answeredThenCompleted],
    ['questionAbandoned', { questions: [parked('q-1'), settled('q-1', 'abandoned')] }],
    [
      'requestClosedWithoutDraft',
      { requests: [request('r-1', 'triaged', 1), request('r-1', 'closed', 2)] },
    ],
    ['loopStop', { transcript: [start('r-1'), counter('r-1', 'loop_stop')] }],
    ['emptyOutput', { transcript: [start('r-1'), counter('r-1', 'empty_output')] }],
    ['finalFailedCall', { transcript: [start('r-1'), counter('r-1', 'final_failed_call')] }],
    ['stepCheckFailed', { transcript: [start('r-1'), stepCheck('r-1', 'step-a', 2, false)] }],
    ['ceiling', { transcript: [start('r-1'), end('r-1', 'turn_ceiling')] }],
    ['boredomNotice', { transcript: [start('r-1'), counter('r-1', 'boredom_notice')] }],
    ['steer', { transcript: [start('r-1'), intervention('r-1', 'steer', 2)] }],
    ['deny', { transcript: [start('r-1'), intervention('r-1', 'deny', 2)] }],
    ['ownerStop', { transcript: [start('r-1'), end('r-1', 'stopped')] }],
    ['reflectorCorrection', { reflections: [reflection('refl-1', { turn: 3 })] }],
    ['taskClosedDone', { closures: [closure('close-1', 'next', 'done')] }],
    ['taskClosedDropped', { closures: [closure('close-1', 'next', 'dropped')] }],
    ['taskReopenedAfterDone', { closures: reopened('done') }],
    ['workflowClosed', { workflows: [wf, workflow('wf-1', 'closed', 2)] }],
    ['workflowCancelled', { workflows: [wf, workflow('wf-1', 'cancelled', 2)] }],
    [
      'workflowReopenedAfterClose',
      { workflows: [wf, workflow('wf-1', 'closed', 2), workflow('wf-1', 'reopened', 3)] },
    ],
    [
      'workflowArtifactCheckFailed',
      { workflows: [wf, workflow('wf-1', 'verified', 2, { check: 'artifact', passed: false })] },
    ],
  ];

  it.each(scenarios)('signs %s as reaching nobody (visible false)', (_, parts) => {
    const { errors } = contributions(evidence(parts));
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error.visible).toBe(false);
  });

  it('covers every signed row whose exposure is fixed, except the one that reached someone', () => {
    const fixed = rows
      .filter(([, row]) => row.kind === 'signed' && row.visible !== 'computed')
      .map(([id]) => id);
    expect([...scenarios.map(([id]) => id), 'draftSentUnchanged'].sort()).toEqual(fixed.sort());
  });

  it('signs a draft the owner sent unchanged as reaching its recipient (visible true)', () => {
    const sent = contributions(
      evidence({ outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')] }),
    );
    expect(sent.errors.map((error) => error.visible)).toEqual([true]);
  });

  it('earns embarrassment for a confirmed error only where the draft reached someone unchanged', () => {
    const label = (result: 'sent_unchanged' | 'sent_edited') => {
      const session = evidence({
        outbox: [staged('d-1'), outcome('d-1', result)],
        ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'confirmed_error')],
      });
      return deriveLabel(contributions(session).errors, labelFactsFor(session, new Set()));
    };
    expect(label('sent_unchanged')).toBe('embarrassment');
    expect(label('sent_edited')).toBe('distress');
  });
});
