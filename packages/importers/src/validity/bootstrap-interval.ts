import { seededRandom } from '@mecha/stores';
import { aucMannWhitney, type Scored } from './auc.js';

/** An AUC with its bootstrap interval, and how the interval was drawn. */
export interface AucInterval {
  /** The AUC on the cases as given; null when a class is empty. */
  readonly auc: number | null;
  /** The percentile interval's bounds; null when there is no AUC. */
  readonly low: number | null;
  readonly high: number | null;
  readonly level: number;
  readonly resamples: number;
  readonly seed: string;
  readonly positives: number;
  readonly negatives: number;
}

/** Options for `aucInterval`. */
export interface IntervalOptions {
  /** Resamples drawn (default 2,000). */
  readonly resamples?: number;
  /** The seed: the same seed and cases give the same interval on every machine. */
  readonly seed: string;
  /** The interval's coverage (default 0.95). */
  readonly level?: number;
}

/** The value at quantile `q` of sorted values, interpolated linearly between neighbours. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.ceil(at);
  const low = sorted[below] as number;
  const high = sorted[above] as number;
  return low + (high - low) * (at - below);
}

/**
 * The AUC of `cases` (see `aucMannWhitney`) with a seeded, stratified percentile bootstrap
 * interval: each resample draws the positives and the negatives apart, with replacement, in
 * their own numbers, so every resample has both classes and an AUC.
 */
export function aucInterval(cases: readonly Scored[], options: IntervalOptions): AucInterval {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  const positives = cases.filter((item) => item.positive);
  const negatives = cases.filter((item) => !item.positive);
  const auc = aucMannWhitney(cases);
  const base = {
    auc,
    level,
    resamples,
    seed: options.seed,
    positives: positives.length,
    negatives: negatives.length,
  };
  if (auc === null) return { ...base, low: null, high: null };
  const random = seededRandom(options.seed);
  const draws: number[] = [];
  const sample: Scored[] = new Array(cases.length);
  for (let index = 0; index < resamples; index += 1) {
    let at = 0;
    for (const group of [positives, negatives]) {
      for (let drawn = 0; drawn < group.length; drawn += 1) {
        sample[at] = group[random.int(0, group.length - 1)] as Scored;
        at += 1;
      }
    }
    draws.push(aucMannWhitney(sample) as number);
  }
  draws.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { ...base, low: quantile(draws, tail), high: quantile(draws, 1 - tail) };
}
