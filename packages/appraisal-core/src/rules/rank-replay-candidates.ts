import type { GoalError } from '../schemas/goal-error.js';

/** One candidate a harness's replay selection may pick, with the evidence it was drawn from. */
export interface ReplayCandidate {
  readonly id: string;
  /** How far the candidate's metric is from its ceiling, in the harness's own units (finite). */
  readonly headroom: number;
  /** The signed errors of its evidence, already attributed to the charter (`readSession`). */
  readonly errors: readonly GoalError[];
}

/** A candidate in the order chosen, with the charter line that placed it among its ties. */
export interface RankedReplayCandidate {
  readonly candidate: ReplayCandidate;
  /** The highest-ranked charter line its evidence is attributed to; undefined when none. */
  readonly charterLine: string | undefined;
  /** That line's rank, 1 for the top line; undefined when its evidence names no line. */
  readonly charterRank: number | undefined;
}

/**
 * Orders replay candidates: more metric headroom first, and among candidates tied on headroom
 * (exactly equal), evidence attributed to a higher-ranked charter line first; evidence that
 * names no line comes after every line. It reads only which line an error is attributed to,
 * never its sign, label or valence, so it cannot optimise the affect label. Ties that remain
 * keep the id order, so the result never depends on the input's order.
 */
export function rankReplayCandidates(
  candidates: readonly ReplayCandidate[],
  charterLineIds: readonly string[],
): RankedReplayCandidate[] {
  for (const candidate of candidates) {
    if (!Number.isFinite(candidate.headroom)) {
      throw new RangeError(`replay candidate ${candidate.id}: headroom must be a finite number`);
    }
  }
  const rankOf = new Map<string, number>();
  charterLineIds.forEach((id, index) => {
    if (!rankOf.has(id)) rankOf.set(id, index + 1);
  });
  const ranked = candidates.map((candidate): RankedReplayCandidate => {
    let best: { line: string; rank: number } | undefined;
    for (const error of candidate.errors) {
      if (error.goal?.kind !== 'charter' || error.goal.id === undefined) continue;
      const rank = rankOf.get(error.goal.id);
      if (rank !== undefined && (best === undefined || rank < best.rank)) {
        best = { line: error.goal.id, rank };
      }
    }
    return { candidate, charterLine: best?.line, charterRank: best?.rank };
  });
  const unranked = Number.POSITIVE_INFINITY;
  return ranked.sort(
    (a, b) =>
      compare(b.candidate.headroom, a.candidate.headroom) ||
      compare(a.charterRank ?? unranked, b.charterRank ?? unranked) ||
      compare(a.candidate.id, b.candidate.id),
  );
}

function compare<T extends number | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
