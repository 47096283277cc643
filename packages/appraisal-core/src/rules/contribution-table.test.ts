import { describe, expect, it } from 'vitest';
import { stopCauseSchema } from '../schemas/transcript.js';
import { type ContributionRow, contributionTable } from './contribution-table.js';

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
