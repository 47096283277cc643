import { z } from 'zod';
import { type Verdict, verdicts } from './verdict.js';

/** Which grader gave a grade, and the sha256 of that grader's source when it gave it. */
export interface GraderIdentity {
  readonly id: string;
  readonly hash: string;
}

/**
 * One grader's judgement of one artefact: the verdict, why, pointers to the evidence
 * (`file:line:col`, a mutant's description, a failing test's name) and who judged it.
 */
export interface Grade {
  readonly verdict: Verdict;
  readonly reason: string;
  readonly evidence: readonly string[];
  readonly grader: GraderIdentity;
  /** Said out loud beside the verdict, e.g. `thin coverage: 1 of 9 mutants killed`. */
  readonly notes: readonly string[];
}

/** The zod schema of a grade, for reading one back from a file or another process. */
export const gradeSchema = z.object({
  verdict: z.enum(verdicts),
  reason: z.string(),
  evidence: z.array(z.string()),
  grader: z.object({ id: z.string().min(1), hash: z.string() }),
  notes: z.array(z.string()).default([]),
});

/** Builds a grade; evidence and notes default to none. */
export function makeGrade(
  grader: GraderIdentity,
  verdict: Verdict,
  reason: string,
  extra: { readonly evidence?: readonly string[]; readonly notes?: readonly string[] } = {},
): Grade {
  return {
    verdict,
    reason,
    evidence: extra.evidence ?? [],
    grader,
    notes: extra.notes ?? [],
  };
}
