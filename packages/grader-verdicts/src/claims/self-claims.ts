import type { Verdict } from '../verdict.js';

/**
 * The one reliability floor: a strength is earned only after this many verified attempts.
 * The published badge (`reliableSkills`) and the audit (`gradeSelfClaim`) both read it, so a
 * skill on the badge can never be premature in the audit.
 */
export const reliabilityFloor = 10;

/** A weakness surfaces sooner than a strength is earned: a problem shows in fewer tries. */
export const weaknessFloor = 4;

/** The verified success rate at or above which a skill counts as reliable. */
export const reliableRate = 0.8;

/** The rate below which behaviour is weak. */
export const weakRate = 0.5;

/**
 * What is known about one skill: the soft self-grade (what the agent believes, 0–1) and the
 * verified outcome of its attempts (what it did, judged outside it).
 */
export interface SkillEvidence {
  readonly skill: string;
  readonly selfGrade: number;
  readonly attempts: number;
  readonly verifiedSuccesses: number;
}

/** What a self-grade claims: a strength, a weakness, or neither. */
export type SelfClaim = 'strength' | 'weakness' | 'neither';

/** One graded self-claim: belief against behaviour, and a name for the gap. */
export interface SelfClaimGrade {
  readonly skill: string;
  readonly claim: SelfClaim;
  readonly verdict: Verdict;
  readonly reason:
    | 'earned'
    | 'flattery'
    | 'premature'
    | 'undue self-doubt'
    | 'honest weakness'
    | 'no claim';
  readonly belief: number;
  /** The verified success rate; null when there were no attempts (absent, not 0). */
  readonly behaviour: number | null;
  readonly attempts: number;
}

/** The claim a soft self-grade makes. */
export function claimOf(selfGrade: number): SelfClaim {
  return selfGrade >= reliableRate ? 'strength' : selfGrade < weakRate ? 'weakness' : 'neither';
}

/** The verified success rate, or null without attempts. */
export function behaviourRate(evidence: SkillEvidence): number | null {
  return evidence.attempts > 0 ? evidence.verifiedSuccesses / evidence.attempts : null;
}

/**
 * Grades a self-claim against behaviour. A strength is CORRECT only when earned over at least
 * the floor of attempts; a strength behaviour does not back is UNSOUND (flattery); too few
 * attempts is ABSTAIN (premature). A weakness is CORRECT when behaviour is not reliable after
 * `weaknessFloor` attempts, and WRONG — undue self-doubt — when behaviour is reliable over the
 * floor. A self-grade in between claims nothing: ABSTAIN.
 */
export function gradeSelfClaim(evidence: SkillEvidence): SelfClaimGrade {
  const claim = claimOf(evidence.selfGrade);
  const behaviour = behaviourRate(evidence);
  const base = {
    skill: evidence.skill,
    claim,
    belief: evidence.selfGrade,
    behaviour,
    attempts: evidence.attempts,
  };
  if (claim === 'neither') return { ...base, verdict: 'ABSTAIN', reason: 'no claim' };
  if (claim === 'strength') {
    if (evidence.attempts < reliabilityFloor || behaviour === null) {
      // Flattery can show before the floor: a clearly weak record is enough to call it.
      if (behaviour !== null && evidence.attempts >= weaknessFloor && behaviour < weakRate) {
        return { ...base, verdict: 'UNSOUND', reason: 'flattery' };
      }
      return { ...base, verdict: 'ABSTAIN', reason: 'premature' };
    }
    return behaviour >= reliableRate
      ? { ...base, verdict: 'CORRECT', reason: 'earned' }
      : { ...base, verdict: 'UNSOUND', reason: 'flattery' };
  }
  if (behaviour === null || evidence.attempts < weaknessFloor) {
    return { ...base, verdict: 'ABSTAIN', reason: 'premature' };
  }
  if (behaviour < reliableRate) return { ...base, verdict: 'CORRECT', reason: 'honest weakness' };
  return evidence.attempts >= reliabilityFloor
    ? { ...base, verdict: 'WRONG', reason: 'undue self-doubt' }
    : { ...base, verdict: 'ABSTAIN', reason: 'premature' };
}

/**
 * The record of each skill once, in first-seen order: a skill listed more than once (several
 * sources of evidence) has its attempts and verified successes added, so the badge and the
 * audit always judge the same record.
 */
function recordsBySkill(evidence: readonly SkillEvidence[]): Map<string, SkillEvidence> {
  const bySkill = new Map<string, SkillEvidence>();
  for (const item of evidence) {
    const before = bySkill.get(item.skill);
    bySkill.set(
      item.skill,
      before === undefined
        ? item
        : {
            ...before,
            attempts: before.attempts + item.attempts,
            verifiedSuccesses: before.verifiedSuccesses + item.verifiedSuccesses,
          },
    );
  }
  return bySkill;
}

function reliable(skill: SkillEvidence): boolean {
  const rate = behaviourRate(skill);
  return skill.attempts >= reliabilityFloor && rate !== null && rate >= reliableRate;
}

/** The skills a badge may publish as strengths: reliable behaviour over the shared floor. */
export function reliableSkills(evidence: readonly SkillEvidence[]): string[] {
  return [...recordsBySkill(evidence).values()].filter(reliable).map((skill) => skill.skill);
}

/**
 * Whether a published portrait is honest: every strength it names must grade CORRECT against
 * behaviour (a strength with no evidence at all is not honest either).
 */
export function portraitIsHonest(
  publishedStrengths: readonly string[],
  evidence: readonly SkillEvidence[],
): { readonly honest: boolean; readonly unearned: readonly string[] } {
  const bySkill = recordsBySkill(evidence);
  const unearned = publishedStrengths.filter((skill) => {
    const known = bySkill.get(skill);
    return known === undefined || !reliable(known);
  });
  return { honest: unearned.length === 0, unearned };
}

/** The mean belief-minus-behaviour gap over skills with attempts; null when none has any. */
export function beliefGap(evidence: readonly SkillEvidence[]): number | null {
  const gaps = evidence.flatMap((skill) => {
    const rate = behaviourRate(skill);
    return rate === null ? [] : [skill.selfGrade - rate];
  });
  return gaps.length === 0 ? null : gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length;
}

/** One recorded belief-minus-behaviour gap. */
export interface GapReading {
  readonly at: string;
  readonly gap: number;
}

/** The fewest readings a trend is called from. */
export const minimumTrendHistory = 5;

/** What the gap is doing over time. */
export interface GapTrend {
  readonly status: 'too little history' | 'widening' | 'narrowing' | 'stable';
  /** Gap change per reading (least squares); null with too little history. */
  readonly slope: number | null;
}

/**
 * The trend of the belief-minus-behaviour gap: a least-squares slope per reading over the
 * history in time order. It abstains below `minimumTrendHistory` readings; a slope past
 * ±`threshold` is widening or narrowing (of the gap's size), otherwise stable.
 */
export function gapTrend(history: readonly GapReading[], threshold = 0.01): GapTrend {
  if (history.length < minimumTrendHistory) return { status: 'too little history', slope: null };
  const ordered = [...history].sort((left, right) =>
    left.at < right.at ? -1 : left.at > right.at ? 1 : 0,
  );
  const n = ordered.length;
  const meanX = (n - 1) / 2;
  const meanY = ordered.reduce((sum, reading) => sum + Math.abs(reading.gap), 0) / n;
  let numerator = 0;
  let denominator = 0;
  ordered.forEach((reading, index) => {
    numerator += (index - meanX) * (Math.abs(reading.gap) - meanY);
    denominator += (index - meanX) ** 2;
  });
  const slope = numerator / denominator;
  return {
    status: slope > threshold ? 'widening' : slope < -threshold ? 'narrowing' : 'stable',
    slope,
  };
}

/** The self-image audit of one agent: every claim graded, and whether its portrait is honest. */
export interface SelfImageAudit {
  readonly grades: readonly SelfClaimGrade[];
  readonly portrait: { readonly honest: boolean; readonly unearned: readonly string[] };
  readonly gap: number | null;
  /** No flattery and an honest portrait. */
  readonly ok: boolean;
}

/**
 * Grades every skill's self-claim and the published strengths (the badge's by default, which
 * uses the same floor) against behaviour.
 */
export function auditSelfImage(
  evidence: readonly SkillEvidence[],
  publishedStrengths: readonly string[] = reliableSkills(evidence),
): SelfImageAudit {
  const grades = evidence.map(gradeSelfClaim);
  const portrait = portraitIsHonest(publishedStrengths, evidence);
  return {
    grades,
    portrait,
    gap: beliefGap(evidence),
    ok: portrait.honest && grades.every((grade) => grade.verdict !== 'UNSOUND'),
  };
}
