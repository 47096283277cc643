import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readBenchmarkJobs } from '../read-benchmark-jobs.js';
import { chooseEdge, negativeBand, readoutOf, validityReport } from './validity-report.js';

// Six real trials of one SWE-bench Verified run (see __fixtures__/swe-bench/SOURCES.md).
const fixture = fileURLToPath(new URL('../__fixtures__/swe-bench', import.meta.url));
const made: string[] = [];

/** A copy of the fixture to damage: each test says what it removed or changed, and why. */
function copy(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mecha-validity-'));
  made.push(folder);
  cpSync(fixture, folder, { recursive: true });
  return folder;
}

afterEach(() => {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('validityReport on the fixture sample', () => {
  it('measures every trial, and reports what the readout saw: nothing signed, an AUC of 0.5', async () => {
    const progress: string[] = [];
    const result = await validityReport({
      jobs: fixture,
      format: 'swe-bench',
      commit: 'abc1234',
      resamples: 200,
      onProgress: (phase, done, total) => progress.push(`${phase} ${done}/${total}`),
    });
    expect(result.state).toBe('read');
    if (result.state !== 'read') return;
    const report = result.value.report;
    expect(report.trials).toEqual({
      found: 6,
      measured: 6,
      excluded: 0,
      byReason: {
        no_transcript: 0,
        unreadable_transcript: 0,
        no_verdict: 0,
        unreadable_verdict: 0,
        synthetic_outcome: 0,
      },
    });
    expect(report.verdicts).toEqual({ failed: 3, passed: 3 });
    expect(report.rules).toMatch(/^rules-[0-9a-f]{12}$/);
    expect(report.commit).toBe('abc1234');
    // Every run submitted: no ceiling, no owner, nothing the contribution table signs.
    expect(report.discrimination.negativeValence).toMatchObject({
      auc: 0.5,
      low: 0.5,
      high: 0.5,
      resamples: 200,
      positives: 3,
      negatives: 3,
    });
    expect(report.discrimination.negativeLabel.auc).toBe(0.5);
    expect(report.byLabel).toEqual([{ group: 'neutral', trials: 6, failed: 3, failureRate: 0.5 }]);
    expect(report.byNegativeValence).toEqual([
      { group: '0', trials: 6, failed: 3, failureRate: 0.5 },
    ]);
    expect(report.byStopCause).toEqual([
      { group: 'completed', trials: 6, failed: 3, failureRate: 0.5 },
    ]);
    expect(report.split.edge).toBeNull();
    expect(report.split.chooseTrials + report.split.reportTrials).toBe(6);
    // The source's own failed commands are there, unsigned: two non-zero exit codes
    // (django__django-13670, django__django-15127) and one timeout (psf__requests-2317).
    expect(report.rows.filter((row) => (row.failedCalls ?? 0) > 0).map((row) => row.trial)).toEqual(
      ['django__django-13670', 'django__django-15127', 'psf__requests-2317'],
    );
    expect(progress).toContain('read 6/6');
    expect(progress.at(-1)).toBe('intervals 5/5');
    expect(result.value.line).toContain('6 of 6 trials measured');
  });

  it('derives the same readout for every trial with and without its outcome', async () => {
    const withOutcomes = await readBenchmarkJobs(fixture, { format: 'swe-bench' });
    const bare = copy();
    rmSync(join(bare, 'logs'), { recursive: true });
    const without = await readBenchmarkJobs(bare, { format: 'swe-bench' });
    if (withOutcomes.state !== 'read' || without.state !== 'read') throw new Error('unread');
    expect(without.trials.every((trial) => trial.outcome.state === 'missing')).toBe(true);
    expect(withOutcomes.trials.every((trial) => trial.outcome.state === 'read')).toBe(true);
    const sessions = (jobs: typeof without) =>
      jobs.trials.map((trial) =>
        trial.session.state === 'read'
          ? { events: trial.session.events, readout: readoutOf(trial.session.events) }
          : null,
      );
    expect(sessions(without)).toEqual(sessions(withOutcomes));
  });

  it('counts each trial it cannot measure by reason, and drops none', async () => {
    const folder = copy();
    // Made here from the real files: one report removed, one trajectory removed, one
    // trajectory cut short, one report saying the patch did not apply, one report not JSON.
    rmSync(join(folder, 'logs/django__django-16255/report.json'));
    rmSync(join(folder, 'trajs/django__django-11163'), { recursive: true });
    writeFileSync(
      join(folder, 'trajs/django__django-13670/django__django-13670.traj.json'),
      '{"info": ',
    );
    writeFileSync(
      join(folder, 'logs/django__django-10999/report.json'),
      JSON.stringify({ resolved: false, patch_exists: true, patch_successfully_applied: false }),
    );
    writeFileSync(join(folder, 'logs/django__django-15127/report.json'), 'not json');
    const result = await validityReport({
      jobs: folder,
      format: 'swe-bench',
      commit: null,
      resamples: 50,
    });
    if (result.state !== 'read') throw new Error(result.reason);
    const report = result.value.report;
    expect(report.trials).toEqual({
      found: 6,
      measured: 1,
      excluded: 5,
      byReason: {
        no_transcript: 1,
        unreadable_transcript: 1,
        no_verdict: 1,
        unreadable_verdict: 1,
        synthetic_outcome: 1,
      },
    });
    const row = (trial: string) => report.rows.find((entry) => entry.trial === trial);
    expect(row('django__django-13670')?.problem).toMatch(
      /^trajs\/django__django-13670\/.*not JSON/,
    );
    expect(row('django__django-10999')).toMatchObject({
      excluded: ['synthetic_outcome'],
      synthetic: 'patch_not_applied',
      verdict: 'failed',
    });
    // One class only is left: no AUC, and no interval, rather than a number.
    expect(report.discrimination.negativeValence).toMatchObject({ auc: null, low: null });
  });

  it('refuses a folder it cannot read', async () => {
    const result = await validityReport({
      jobs: join(fixture, 'no-such-folder'),
      format: 'swe-bench',
      commit: null,
    });
    expect(result.state).toBe('unreadable');
  });
});

describe('the band edge and the fixed bands', () => {
  it('chooses the edge that best separates failures, and none from one value', () => {
    expect(chooseEdge([])).toBeNull();
    expect(
      chooseEdge([
        { negative: 0, failed: false },
        { negative: 0, failed: true },
      ]),
    ).toBeNull();
    expect(
      chooseEdge([
        { negative: 0, failed: false },
        { negative: 0.5, failed: false },
        { negative: 1, failed: true },
        { negative: 2, failed: true },
      ]),
    ).toBe(0.5);
  });

  it('puts each negative valence in one fixed band', () => {
    expect([0, 0.5, 1, 1.5, 2, 3].map(negativeBand)).toEqual([
      '0',
      '(0, 1]',
      '(0, 1]',
      '(1, 2]',
      '(1, 2]',
      '> 2',
    ]);
  });
});
