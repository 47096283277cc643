import { type Verdict, verdicts } from './verdict.js';

/**
 * How many grades got each verdict. ABSTAIN keeps its own count: it is never folded into
 * CORRECT (a pass nobody earned) or WRONG (a failure nobody made).
 */
export interface VerdictTally {
  readonly CORRECT: number;
  readonly WRONG: number;
  readonly UNSOUND: number;
  readonly ABSTAIN: number;
  readonly total: number;
}

/** Counts each verdict of a set of grades. */
export function tallyVerdicts(grades: Iterable<{ readonly verdict: Verdict }>): VerdictTally {
  const counts = { CORRECT: 0, WRONG: 0, UNSOUND: 0, ABSTAIN: 0 };
  let total = 0;
  for (const grade of grades) {
    counts[grade.verdict] += 1;
    total += 1;
  }
  return { ...counts, total };
}

/** Adds two tallies; merging is how per-shard tallies combine without losing a count. */
export function mergeTallies(left: VerdictTally, right: VerdictTally): VerdictTally {
  const sum = (verdict: Verdict) => left[verdict] + right[verdict];
  return {
    CORRECT: sum('CORRECT'),
    WRONG: sum('WRONG'),
    UNSOUND: sum('UNSOUND'),
    ABSTAIN: sum('ABSTAIN'),
    total: left.total + right.total,
  };
}

/**
 * The share of graded work that earned CORRECT. Abstentions are outside the denominator, and
 * when nothing was graded the rate is absent (null), never 0 % or 100 %.
 */
export function certifiedRate(tally: VerdictTally): number | null {
  const graded = tally.total - tally.ABSTAIN;
  return graded === 0 ? null : tally.CORRECT / graded;
}

/**
 * One verdict for a whole suite. An empty suite checked nothing, so it is ABSTAIN; any UNSOUND
 * outranks WRONG, any WRONG outranks ABSTAIN, and CORRECT needs every grade CORRECT.
 */
export function suiteVerdict(tally: VerdictTally): Verdict {
  if (tally.total === 0) return 'ABSTAIN';
  for (const verdict of ['UNSOUND', 'WRONG', 'ABSTAIN'] as const) {
    if (tally[verdict] > 0) return verdict;
  }
  return 'CORRECT';
}

/** The tally as `CORRECT 3 · WRONG 1 · UNSOUND 0 · ABSTAIN 2`, in protocol order. */
export function formatTally(tally: VerdictTally): string {
  return verdicts.map((verdict) => `${verdict} ${tally[verdict]}`).join(' · ');
}
