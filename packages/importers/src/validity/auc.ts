/** One scored case: the scorer's value and whether the case is in the positive class. */
export interface Scored {
  readonly score: number;
  readonly positive: boolean;
}

/**
 * The area under the ROC curve by the Mann–Whitney statistic: the probability that a positive
 * case scores above a negative one, a tie counting one half (midranks). 1 is a perfect scorer,
 * 0 a perfectly inverted one, 0.5 one that cannot tell the classes apart (or scores everything
 * the same). Null when either class is empty: there is nothing to discriminate.
 */
export function aucMannWhitney(cases: readonly Scored[]): number | null {
  let positives = 0;
  for (const item of cases) if (item.positive) positives += 1;
  const negatives = cases.length - positives;
  if (positives === 0 || negatives === 0) return null;
  for (const item of cases) {
    if (!Number.isFinite(item.score)) return null;
  }
  const sorted = [...cases].sort((a, b) => a.score - b.score);
  // Sum of the positives' midranks (1-based); a run of equal scores shares its mean rank.
  let rankSum = 0;
  let start = 0;
  while (start < sorted.length) {
    let end = start;
    let inRun = 0;
    while (
      end < sorted.length &&
      (sorted[end] as Scored).score === (sorted[start] as Scored).score
    ) {
      if ((sorted[end] as Scored).positive) inRun += 1;
      end += 1;
    }
    const midrank = (start + 1 + end) / 2;
    rankSum += inRun * midrank;
    start = end;
  }
  const u = rankSum - (positives * (positives + 1)) / 2;
  return u / (positives * negatives);
}
