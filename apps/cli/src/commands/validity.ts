import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripControl } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import {
  type AucInterval,
  type BenchmarkFormat,
  type RateRow,
  type ValidityReport,
  validityReport,
} from '@mecha/importers';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { flag, stringOption, wholeNumber } from '../parse-command.js';
import { progressBar } from '../progress.js';

const formats: readonly BenchmarkFormat[] = ['swe-bench'];

const help = `Usage: mecha validity --jobs DIR [--format swe-bench] [--out FILE] [--json]

Measures whether the appraisal's readout goes with the verdicts of benchmark verifiers, on
runs nobody here made. Each trial's trajectory becomes a session and its readout is derived
from that session alone; the verifier's outcome is kept apart and only then compared:

  - discrimination: the AUC (Mann-Whitney, ties counted half) of the negative valence, the
    positive valence and a negative label for a failed verdict, each with a seeded bootstrap
    95% interval (the number of resamples is printed);
  - failure rates by label, by fixed band of negative valence and by stop cause, with counts;
  - a band edge chosen on one half of the trials and reported on the other;
  - every trial with no transcript, an unreadable one, no verdict, an unreadable one, or a
    synthetic outcome (a verdict given without the tests running), counted by reason;
  - the rules' version and the commit it ran on.

It reads no mecha home and writes nothing but --out. What it can and cannot see is in
docs/validity.md.

Formats:
  swe-bench   mini-swe-agent trajectories (<instance>.traj.json) with SWE-bench evaluation
              reports (<instance>/report.json) anywhere under DIR

Options:
  --jobs DIR        the folder of job artifacts (required)
  --format NAME     the layout of DIR (default: swe-bench)
  --out FILE        also write the report, with every trial's row, as JSON to FILE
  --resamples N     bootstrap resamples (default: 2000)
  --seed TEXT       the seed of the bootstrap and of the half split (default: mecha-validity)
  --json            print the report as JSON on stdout, and nothing else there
  -h, --help        show this help
`;

/** The commit of the code that runs, where it runs from a git checkout; null otherwise. */
function commitOfThisCode(): string | null {
  try {
    const here = dirname(fileURLToPath(import.meta.url));
    const head = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: here,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /^[0-9a-f]{40}$/.test(head) ? head : null;
  } catch {
    return null;
  }
}

const number = (value: number | null, digits = 3): string =>
  value === null ? '—' : value.toFixed(digits);

function aucLine(name: string, interval: AucInterval): string {
  const span =
    interval.auc === null
      ? 'not defined (a class is empty)'
      : `${number(interval.auc)}  [${number(interval.low)}, ${number(interval.high)}]`;
  return `  ${name.padEnd(18)} ${span}`;
}

function rateLines(rows: readonly RateRow[]): string[] {
  const width = Math.max(8, ...rows.map((row) => row.group.length));
  return rows.map(
    (row) =>
      `  ${row.group.padEnd(width)}  ${String(row.trials).padStart(5)} trials  ${String(row.failed).padStart(5)} failed  ${row.failureRate === null ? '—' : `${(row.failureRate * 100).toFixed(1)}%`}`,
  );
}

function render(report: ValidityReport, out: string | undefined): string {
  const reasons = report.trials.byReason;
  const d = report.discrimination;
  const lines = [
    `Validity of the readout against verifier outcomes (${report.format}, ${stripControl(report.jobs)})`,
    `  rules ${report.rules} · commit ${report.commit ?? 'unknown (not run from a git checkout)'}`,
    `  trials     ${report.trials.found} found · ${report.trials.measured} measured · ${report.trials.excluded} not measured`,
    `  not measured, by reason: no transcript ${reasons.no_transcript} · unreadable transcript ${reasons.unreadable_transcript} · no verdict ${reasons.no_verdict} · unreadable verdict ${reasons.unreadable_verdict} · synthetic outcome ${reasons.synthetic_outcome}`,
    `  verdicts   ${report.verdicts.failed} failed · ${report.verdicts.passed} passed · ${report.partialReadouts} partial readouts`,
    '',
    `AUC for a failed verdict, with a ${d.negativeValence.level * 100}% bootstrap interval (${d.negativeValence.resamples} stratified resamples, seed ${stripControl(report.split.seed)})`,
    aucLine('negative valence', d.negativeValence),
    aucLine('positive valence', d.positiveValence),
    aucLine('negative label', d.negativeLabel),
    '',
    'Signals the trajectories record that the readout does not sign (AUC for a failed verdict)',
    aucLine('failed commands', report.unsignedSignals.failedCalls),
    aucLine('format errors', report.unsignedSignals.formatErrors),
    '',
    'Failure rate by label',
    ...rateLines(report.byLabel),
    '',
    'Failure rate by negative valence (fixed bands)',
    ...rateLines(report.byNegativeValence),
    '',
    'Failure rate by stop cause',
    ...rateLines(report.byStopCause),
    '',
    `Band edge chosen on one half (${report.split.chooseTrials} trials), reported on the other (${report.split.reportTrials} trials)`,
    report.split.edge === null
      ? '  no edge: the choosing half holds one value of negative valence (or one class)'
      : `  edge: negative valence ${report.split.edge}`,
    ...rateLines(report.split.rows),
  ];
  const problems = report.rows.filter((row) => row.problem !== null);
  if (problems.length > 0) {
    lines.push('', 'Trials that could not be read:');
    for (const row of problems) {
      lines.push(`  ${stripControl(row.trial)}: ${stripControl(row.problem ?? '')}`);
    }
  }
  if (out !== undefined) lines.push('', `Every trial's row: ${stripControl(out)}`);
  lines.push('');
  return lines.join('\n');
}

const validity: Command = {
  path: 'validity',
  summary: 'the readout against verifier outcomes of benchmark runs (AUC, intervals, counts)',
  help,
  homeMayBeMissing: true,
  takesNoArguments: true,
  options: {
    jobs: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    resamples: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, context }) {
    const jobs = stringOption(values, 'jobs');
    if (jobs === undefined || jobs === '') {
      return usageError(context, 'validity', '--jobs DIR is required');
    }
    const format = stringOption(values, 'format') ?? 'swe-bench';
    if (!formats.includes(format as BenchmarkFormat)) {
      return usageError(
        context,
        'validity',
        `--format takes ${formats.join(', ')}, not ${JSON.stringify(format)}`,
      );
    }
    let resamples = 2000;
    const resamplesText = stringOption(values, 'resamples');
    if (resamplesText !== undefined) {
      const parsed = wholeNumber(resamplesText, '--resamples', 10, 1_000_000);
      if (isLeft(parsed)) return usageError(context, 'validity', parsed.left.message);
      resamples = parsed.right;
    }
    const outText = stringOption(values, 'out');
    const out = outText === undefined ? undefined : resolve(context.cwd, outText);
    const progress = progressBar({
      write: context.stderr,
      isTTY: context.stderrIsTTY,
      label: 'reading trials',
    });
    const seed = stringOption(values, 'seed');
    const result = await validityReport({
      jobs: resolve(context.cwd, jobs),
      format: format as BenchmarkFormat,
      commit: commitOfThisCode(),
      resamples,
      ...(seed === undefined ? {} : { seed }),
      onProgress: (phase, _done, total) => {
        if (phase !== 'read') return;
        progress.total(total);
        progress.tick();
      },
    });
    progress.done();
    if (result.state === 'unreadable') return failure(context, 'validity', result.reason);
    const json = `${JSON.stringify(result.value.report, null, 2)}\n`;
    if (out !== undefined) {
      try {
        writeFileSync(out, json);
      } catch (error) {
        return failure(context, 'validity', `cannot write ${out}: ${String(error)}`);
      }
    }
    if (flag(values, 'json')) context.stdout(json);
    else context.stdout(render(result.value.report, out));
    return exitCodes.ok;
  },
};

/** `mecha validity`: the readout measured against benchmark verifiers (from @mecha/importers). */
export const validityGroup: CommandGroup = {
  name: 'validity',
  summary: validity.summary,
  fallback: validity,
  commands: [],
};
