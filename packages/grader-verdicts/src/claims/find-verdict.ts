import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import type { Verdict } from '../verdict.js';

/**
 * One finding of a live target: its status label, the tier of the grader that preserved it
 * (a hard-objective `commit`, or a soft `candidate` that only survived a pre-filter), and a
 * live pass made with a human present, if any.
 */
export interface Finding {
  readonly id: string;
  readonly status: 'confirmed' | 'candidate' | 'hypothesis' | 'rejected';
  readonly tier: 'commit' | 'candidate' | 'none';
  readonly livePass?: { readonly by: string; readonly at: string; readonly humanPresent: boolean };
}

/** A find's verdict and why. */
export interface FindVerdict {
  readonly id: string;
  readonly verdict: Verdict;
  readonly reason: string;
}

function earned(finding: Finding): boolean {
  return finding.tier === 'commit' || finding.livePass?.humanPresent === true;
}

/**
 * Grades a finding's label against its evidence. `confirmed` backed by a commit-tier find or a
 * human-present live pass: CORRECT; `confirmed` on anything less: UNSOUND (the over-call); a
 * real candidate not yet confirmed: ABSTAIN (an honest pending). Other labels claim nothing.
 */
export function gradeFind(finding: Finding): FindVerdict {
  if (finding.status === 'confirmed') {
    return earned(finding)
      ? { id: finding.id, verdict: 'CORRECT', reason: 'confirmed, and the evidence earns it' }
      : {
          id: finding.id,
          verdict: 'UNSOUND',
          reason: 'confirmed without a commit-tier find or a live pass',
        };
  }
  return {
    id: finding.id,
    verdict: 'ABSTAIN',
    reason: `${finding.status}: not claimed as confirmed`,
  };
}

/** What `confirmFind` gives: the confirmed finding, or the refusal and why. */
export type ConfirmResult = Either<Refusal<'rejected'>, Finding>;

/**
 * The only path that writes `confirmed`: it refuses unless a commit-tier find or a
 * human-present live pass earned it, so an over-call cannot be written at all.
 */
export function confirmFind(finding: Finding): ConfirmResult {
  if (!earned(finding)) {
    return left(
      refusal(
        'rejected',
        `${finding.id} is ${finding.tier}-tier with no human-present live pass: it stays ${finding.status}`,
      ),
    );
  }
  return right({ ...finding, status: 'confirmed' });
}

/** Grades every finding of a file; the over-calls are the UNSOUND ones. */
export function auditFindings(findings: readonly Finding[]): FindVerdict[] {
  return findings.map(gradeFind);
}
