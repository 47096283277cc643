import { createHash } from 'node:crypto';
import {
  appraiseRun,
  type Label,
  recordSchemas,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import { couldNotRead, readValue, type ValueRead } from '@mecha/errors';
import type { TranscriptEventInput } from '@mecha/stores';
import {
  type BenchmarkFormat,
  type BenchmarkTrial,
  readBenchmarkJobs,
} from '../read-benchmark-jobs.js';
import type { Scored } from './auc.js';
import { type AucInterval, aucInterval } from './bootstrap-interval.js';
import { rulesVersion } from './rules-version.js';

/** Why a trial is left out of the discrimination, counted by reason (a trial may have several). */
export type ExclusionReason =
  | 'no_transcript'
  | 'unreadable_transcript'
  | 'no_verdict'
  | 'unreadable_verdict'
  | 'synthetic_outcome';

const exclusionReasons: readonly ExclusionReason[] = [
  'no_transcript',
  'unreadable_transcript',
  'no_verdict',
  'unreadable_verdict',
  'synthetic_outcome',
];

/** The labels that name a negative outcome; the rest (neutral, pride, excitement) do not. */
const negativeLabels: ReadonlySet<Label> = new Set<Label>([
  'distress',
  'anger',
  'regret',
  'disappointment',
  'frustration',
  'embarrassment',
  'guilt',
  'shame',
]);

/** The readout of one trial's session, derived from its events alone. */
export interface TrialReadout {
  readonly label: Label;
  readonly positive: number;
  readonly negative: number;
  readonly partial: boolean;
}

/** One trial as the report lists it. */
export interface ValidityRow {
  readonly trial: string;
  readonly sessionId: string | null;
  readonly readout: TrialReadout | null;
  readonly stopCause: string | null;
  readonly exitStatus: string | null;
  readonly failedCalls: number | null;
  readonly formatErrors: number | null;
  readonly verdict: 'passed' | 'failed' | null;
  readonly synthetic: string | null;
  readonly excluded: readonly ExclusionReason[];
  /** Where the trial's problem lies, when there is one (the file and why). */
  readonly problem: string | null;
}

/** Failure rate in one group of trials. */
export interface RateRow {
  readonly group: string;
  readonly trials: number;
  readonly failed: number;
  /** Null over no trials. */
  readonly failureRate: number | null;
}

/** What `mecha validity` reports. */
export interface ValidityReport {
  readonly v: 1;
  readonly format: BenchmarkFormat;
  readonly jobs: string;
  readonly rules: string;
  readonly commit: string | null;
  readonly trials: {
    readonly found: number;
    /** Trials with a readout and a measured verdict: the population every figure is over. */
    readonly measured: number;
    readonly excluded: number;
    readonly byReason: Readonly<Record<ExclusionReason, number>>;
  };
  readonly verdicts: { readonly failed: number; readonly passed: number };
  /** Readouts whose valence is partial (a compacted run): included, and counted. */
  readonly partialReadouts: number;
  /** AUC for a failed verdict: higher scores should go with failure. */
  readonly discrimination: {
    readonly negativeValence: AucInterval;
    readonly positiveValence: AucInterval;
    /** 1 for a negative label (distress, anger, …), 0 for neutral or positive ones. */
    readonly negativeLabel: AucInterval;
  };
  /**
   * Signals the source records that the readout does not sign (failed commands, format
   * errors): their AUC for a failed verdict, to show what the readout leaves unread.
   */
  readonly unsignedSignals: {
    readonly failedCalls: AucInterval;
    readonly formatErrors: AucInterval;
  };
  readonly byLabel: readonly RateRow[];
  /** Fixed bands of negative valence (set by the contribution table's steps, not by the data). */
  readonly byNegativeValence: readonly RateRow[];
  readonly byStopCause: readonly RateRow[];
  /** A band edge chosen on one half of the trials and reported on the other. */
  readonly split: {
    readonly seed: string;
    readonly chooseTrials: number;
    readonly reportTrials: number;
    /** The negative valence edge chosen on the first half; null when it holds one value only. */
    readonly edge: number | null;
    readonly rows: readonly RateRow[];
  };
  readonly rows: readonly ValidityRow[];
}

/** The report and its one-line summary. */
export interface ValidityReported {
  readonly report: ValidityReport;
  readonly line: string;
}

/** What a validity run read: the report, or why the jobs could not be read. */
export type ValidityResult = ValueRead<ValidityReported>;

/** Options for `validityReport`. */
export interface ValidityOptions {
  /** The folder of job artifacts. */
  readonly jobs: string;
  readonly format: BenchmarkFormat;
  /** The commit of the code that ran, where known. */
  readonly commit: string | null;
  /** Bootstrap resamples (default 2,000). */
  readonly resamples?: number;
  /** The seed of the bootstrap and of the half split (default `mecha-validity`). */
  readonly seed?: string;
  /** Called as trials are read, and once per interval computed. */
  readonly onProgress?: (phase: 'read' | 'intervals', done: number, total: number) => void;
}

type Derived =
  | { readonly kind: 'read'; readonly readout: TrialReadout }
  | { readonly kind: 'invalid'; readonly reason: string };

const transcriptEvent = recordSchemas['transcript-event'];

/**
 * The readout of a session from its events alone, as the free per-run readout derives it. It
 * takes no outcome: nothing the verifier said can reach it.
 */
export function readoutOf(events: readonly TranscriptEventInput[]): Derived {
  const parsed: TranscriptEvent[] = [];
  for (const event of events) {
    const result = transcriptEvent.safeParse(event);
    if (!result.success) {
      return {
        kind: 'invalid',
        reason: `an event the store would refuse: ${result.error.message}`,
      };
    }
    parsed.push(result.data);
  }
  const run = appraiseRun(parsed);
  return {
    kind: 'read',
    readout: {
      label: run.label,
      positive: run.valence.positive,
      negative: run.valence.negative,
      partial: run.valence.partial,
    },
  };
}

function rowOf(trial: BenchmarkTrial): ValidityRow {
  const excluded: ExclusionReason[] = [];
  const problems: string[] = [];
  let readout: TrialReadout | null = null;
  const session = trial.session;
  if (session.state === 'missing') excluded.push('no_transcript');
  else if (session.state === 'unreadable') {
    excluded.push('unreadable_transcript');
    problems.push(`${session.file}: ${session.reason}`);
  } else {
    const derived = readoutOf(session.events);
    if (derived.kind === 'read') readout = derived.readout;
    else {
      excluded.push('unreadable_transcript');
      problems.push(`${session.file}: ${derived.reason}`);
    }
  }
  const outcome = trial.outcome;
  if (outcome.state === 'missing') excluded.push('no_verdict');
  else if (outcome.state === 'unreadable') {
    excluded.push('unreadable_verdict');
    problems.push(`${outcome.file}: ${outcome.reason}`);
  } else if (outcome.record.synthetic !== null) excluded.push('synthetic_outcome');
  const read = session.state === 'read' ? session : null;
  return {
    trial: trial.trial,
    sessionId: read?.sessionId ?? null,
    readout,
    stopCause: read?.reading.stopCause ?? null,
    exitStatus: read?.reading.exitStatus ?? null,
    failedCalls: read?.reading.failedCalls ?? null,
    formatErrors: read?.reading.formatErrors ?? null,
    verdict: outcome.state === 'read' ? outcome.record.verdict : null,
    synthetic: outcome.state === 'read' ? outcome.record.synthetic : null,
    excluded,
    problem: problems.length === 0 ? null : problems.join('; '),
  };
}

interface Measured {
  readonly row: ValidityRow;
  readonly readout: TrialReadout;
  readonly failed: boolean;
}

function rates(groups: Map<string, Measured[]>, order: readonly string[]): RateRow[] {
  return order
    .filter((group) => groups.has(group))
    .map((group) => {
      const members = groups.get(group) ?? [];
      const failed = members.filter((member) => member.failed).length;
      return {
        group,
        trials: members.length,
        failed,
        failureRate: members.length === 0 ? null : failed / members.length,
      };
    });
}

function groupBy(items: readonly Measured[], key: (item: Measured) => string) {
  const groups = new Map<string, Measured[]>();
  for (const item of items) {
    const name = key(item);
    groups.set(name, [...(groups.get(name) ?? []), item]);
  }
  return groups;
}

/** The fixed band a negative valence falls in. */
export function negativeBand(negative: number): string {
  if (negative === 0) return '0';
  if (negative <= 1) return '(0, 1]';
  if (negative <= 2) return '(1, 2]';
  return '> 2';
}

const bandOrder = ['0', '(0, 1]', '(1, 2]', '> 2'];

/** Which half a trial falls in: a seeded digest of its id, so the split does not follow the data. */
function chooseHalf(seed: string, trial: string): boolean {
  const first = createHash('sha256').update(`${seed}\n${trial}`).digest()[0] as number;
  return (first & 1) === 0;
}

/**
 * The edge `t` among the values seen that best separates failures (negative valence above `t`)
 * from passes (at or below), by Youden's J = TPR − FPR; null when one value only was seen, or
 * a class is empty.
 */
export function chooseEdge(items: readonly { negative: number; failed: boolean }[]): number | null {
  const values = [...new Set(items.map((item) => item.negative))].sort((a, b) => a - b);
  const failures = items.filter((item) => item.failed).length;
  const passes = items.length - failures;
  if (values.length < 2 || failures === 0 || passes === 0) return null;
  let best: { edge: number; j: number } | null = null;
  for (const edge of values.slice(0, -1)) {
    const tp = items.filter((item) => item.failed && item.negative > edge).length;
    const fp = items.filter((item) => !item.failed && item.negative > edge).length;
    const j = tp / failures - fp / passes;
    if (best === null || j > best.j) best = { edge, j };
  }
  return best?.edge ?? null;
}

function line(report: ValidityReport): string {
  const auc = report.discrimination.negativeValence.auc;
  return `${report.trials.measured} of ${report.trials.found} trials measured · AUC of negative valence for a failed verdict ${auc === null ? 'not defined' : auc.toFixed(3)}`;
}

/**
 * Reads a folder of benchmark jobs, derives each session's readout from its events alone (never
 * from its outcome), and measures how the readout goes with the verifier's verdict: AUCs with
 * seeded bootstrap intervals, failure rates by label, by valence band and by stop cause, and a
 * band edge chosen on one half of the trials and reported on the other. Every trial with no
 * transcript, no verdict, an unreadable one or a synthetic outcome is listed and counted.
 */
export async function validityReport(options: ValidityOptions): Promise<ValidityResult> {
  const seed = options.seed ?? 'mecha-validity';
  const resamples = options.resamples ?? 2000;
  const jobs = await readBenchmarkJobs(options.jobs, {
    format: options.format,
    onProgress: (done, total) => options.onProgress?.('read', done, total),
  });
  if (jobs.state === 'unreadable') {
    return couldNotRead(`cannot read ${options.jobs}: ${jobs.reason}`);
  }
  const rows = jobs.trials.map(rowOf);
  const measured: Measured[] = [];
  for (const row of rows) {
    if (row.excluded.length === 0 && row.readout !== null && row.verdict !== null) {
      measured.push({ row, readout: row.readout, failed: row.verdict === 'failed' });
    }
  }
  const byReason = Object.fromEntries(
    exclusionReasons.map((reason) => [
      reason,
      rows.filter((row) => row.excluded.includes(reason)).length,
    ]),
  ) as Record<ExclusionReason, number>;
  const scored = (score: (item: Measured) => number): Scored[] =>
    measured.map((item) => ({ score: score(item), positive: item.failed }));
  const intervals: [string, Scored[]][] = [
    ['negative', scored((item) => item.readout.negative)],
    ['positive', scored((item) => item.readout.positive)],
    ['label', scored((item) => (negativeLabels.has(item.readout.label) ? 1 : 0))],
    ['failedCalls', scored((item) => item.row.failedCalls ?? 0)],
    ['formatErrors', scored((item) => item.row.formatErrors ?? 0)],
  ];
  const computed = new Map<string, AucInterval>();
  for (const [index, [name, cases]] of intervals.entries()) {
    computed.set(name, aucInterval(cases, { seed: `${seed}:${name}`, resamples }));
    options.onProgress?.('intervals', index + 1, intervals.length);
  }
  const get = (name: string) => computed.get(name) as AucInterval;
  const labelOrder = [...new Set(measured.map((item) => item.readout.label))].sort();
  const stopOrder = [...new Set(measured.map((item) => item.row.stopCause ?? 'unknown'))].sort();
  const choose = measured.filter((item) => chooseHalf(seed, item.row.trial));
  const reportHalf = measured.filter((item) => !chooseHalf(seed, item.row.trial));
  const edge = chooseEdge(
    choose.map((item) => ({ negative: item.readout.negative, failed: item.failed })),
  );
  const splitRows =
    edge === null
      ? rates(new Map([['all', reportHalf]]), ['all'])
      : rates(
          groupBy(reportHalf, (item) =>
            item.readout.negative > edge ? `> ${edge}` : `<= ${edge}`,
          ),
          [`<= ${edge}`, `> ${edge}`],
        );
  const report: ValidityReport = {
    v: 1,
    format: options.format,
    jobs: options.jobs,
    rules: rulesVersion(),
    commit: options.commit,
    trials: {
      found: rows.length,
      measured: measured.length,
      excluded: rows.filter((row) => row.excluded.length > 0).length,
      byReason,
    },
    verdicts: {
      failed: measured.filter((item) => item.failed).length,
      passed: measured.filter((item) => !item.failed).length,
    },
    partialReadouts: measured.filter((item) => item.readout.partial).length,
    discrimination: {
      negativeValence: get('negative'),
      positiveValence: get('positive'),
      negativeLabel: get('label'),
    },
    unsignedSignals: { failedCalls: get('failedCalls'), formatErrors: get('formatErrors') },
    byLabel: rates(
      groupBy(measured, (item) => item.readout.label),
      labelOrder,
    ),
    byNegativeValence: rates(
      groupBy(measured, (item) => negativeBand(item.readout.negative)),
      bandOrder,
    ),
    byStopCause: rates(
      groupBy(measured, (item) => item.row.stopCause ?? 'unknown'),
      stopOrder,
    ),
    split: {
      seed,
      chooseTrials: choose.length,
      reportTrials: reportHalf.length,
      edge,
      rows: splitRows,
    },
    rows,
  };
  return readValue({ report, line: line(report) });
}
