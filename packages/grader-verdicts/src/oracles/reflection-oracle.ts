import { gradeSelfClaim, type SelfClaimGrade, type SkillEvidence } from '../claims/self-claims.js';
import type { Verdict } from '../verdict.js';

/**
 * One statement of a reflection. Only a `behaviour` claim about a named skill ("I am reliable
 * at X", "I am weak at Y") can be checked against what happened; prescriptions, moods and the
 * headline cannot.
 */
export interface ReflectionStatement {
  readonly text: string;
  readonly kind: 'behaviour' | 'prescription' | 'mood' | 'headline';
  readonly skill?: string;
  /** What the statement says of the skill, as a self-grade (0–1). */
  readonly selfGrade?: number;
}

/** One statement graded. */
export interface ReflectionGrade {
  readonly text: string;
  readonly verdict: Verdict;
  readonly reason: string;
  readonly claim?: SelfClaimGrade;
}

/**
 * Grades a reflection against behaviour only, never with a model: a behaviour claim about a
 * skill with evidence is graded like a self-claim (flattery, undue self-doubt, earned,
 * premature); every other statement is ABSTAIN — ungraded, and said to be.
 */
export function gradeReflection(
  statements: readonly ReflectionStatement[],
  evidence: readonly SkillEvidence[],
): ReflectionGrade[] {
  const bySkill = new Map(evidence.map((skill) => [skill.skill, skill]));
  return statements.map((statement) => {
    if (
      statement.kind !== 'behaviour' ||
      statement.skill === undefined ||
      statement.selfGrade === undefined
    ) {
      return {
        text: statement.text,
        verdict: 'ABSTAIN',
        reason: 'not a claim about behaviour: ungraded',
      };
    }
    const known = bySkill.get(statement.skill);
    if (known === undefined) {
      return {
        text: statement.text,
        verdict: 'ABSTAIN',
        reason: `no behaviour recorded for ${statement.skill}`,
      };
    }
    const claim = gradeSelfClaim({ ...known, selfGrade: statement.selfGrade });
    return { text: statement.text, verdict: claim.verdict, reason: claim.reason, claim };
  });
}
