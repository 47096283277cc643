import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AucInterval,
  aucInterval,
  readBenchmarkJobs,
  type ValidityReport,
  validityReport,
} from '@mecha/importers';
import { measure, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

// The whole run is kept out of git (docs/validity.md says how to fetch it); without it the
// suite measures the six-trial fixture and says so.
const fixture = fileURLToPath(
  new URL('../../../../packages/importers/src/__fixtures__/swe-bench', import.meta.url),
);
const jobs = process.env.MECHA_VALIDITY_JOBS ?? fixture;

function files(folder: string, found: string[] = []): string[] {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files(path, found);
    else if (entry.name.endsWith('.traj.json') || entry.name === 'report.json') found.push(path);
  }
  return found;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const auc = (interval: AucInterval) =>
  interval.auc === null
    ? 'not defined'
    : `${interval.auc.toFixed(3)} [${interval.low?.toFixed(3)}, ${interval.high?.toFixed(3)}]`;

/** `mecha validity`'s use-case on a whole benchmark run, against reading its files as JSON. */
export const validitySuite: Suite = {
  id: 'validity',
  title: 'Validity: the readout against benchmark verdicts',
  async run(): Promise<readonly ResultTable[]> {
    const paths = files(jobs);
    const bytes = paths.reduce((sum, path) => sum + statSync(path).size, 0);
    const samples = 3;
    const parse = await measure(
      'JSON.parse of every file (baseline)',
      () => {
        for (const path of paths) JSON.parse(readFileSync(path, 'utf8'));
      },
      { samples },
    );
    const read = await measure(
      'readBenchmarkJobs: trials to sessions',
      () => readBenchmarkJobs(jobs, { format: 'swe-bench' }),
      { samples },
    );
    let report: ValidityReport | undefined;
    const whole = await measure(
      'validityReport: readouts, 5 AUCs × 2,000 resamples',
      async () => {
        const result = await validityReport({ jobs, format: 'swe-bench', commit: null });
        if (result.state === 'read') report = result.value.report;
      },
      { samples },
    );
    const cases = (report?.rows ?? []).map((row, index) => ({
      score: row.failedCalls ?? 0,
      positive: index % 4 === 0,
    }));
    const bootstrap = await measure(
      'one AUC interval, 2,000 resamples',
      () => aucInterval(cases, { seed: 'bench' }),
      { samples },
    );
    const rows = [parse, read, whole, bootstrap].map((m) => [
      m.name,
      ms(m.median),
      `${(m.median / parse.median).toFixed(2)}×`,
      `${ms(m.min)} – ${ms(m.max)}`,
    ]);
    const timing: ResultTable = {
      title: 'Timing (median of 3)',
      columns: ['work', 'median', 'vs baseline', 'range'],
      rows,
      notes: [
        `${paths.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, from ${jobs === fixture ? 'the six-trial fixture (set MECHA_VALIDITY_JOBS to the whole run)' : 'MECHA_VALIDITY_JOBS'}.`,
      ],
    };
    if (report === undefined) return [timing];
    const d = report.discrimination;
    const figures: ResultTable = {
      title: `Figures (${report.trials.measured} of ${report.trials.found} trials measured; ${report.verdicts.failed} failed)`,
      columns: ['AUC for a failed verdict', 'value [95% interval]'],
      rows: [
        ['negative valence', auc(d.negativeValence)],
        ['positive valence', auc(d.positiveValence)],
        ['negative label', auc(d.negativeLabel)],
        ['failed commands (not signed)', auc(report.unsignedSignals.failedCalls)],
        ['format errors (not signed)', auc(report.unsignedSignals.formatErrors)],
      ],
      notes: [`Rules ${report.rules}; seed mecha-validity; 2,000 stratified resamples.`],
    };
    return [timing, figures];
  },
};
