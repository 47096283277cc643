import type { Grade } from './grade.js';
import { retryMayHelp } from './verdict.js';

/** What a grading loop ended in, one status per verdict that can end it. */
export type GradeLoopStatus = 'certified' | 'failed' | 'flagged' | 'ungraded';

/** The loop's outcome: its status, a sentence for a person, and every grade in order. */
export interface GradeLoopOutcome<A> {
  readonly status: GradeLoopStatus;
  readonly message: string;
  readonly grades: readonly Grade[];
  /** The last artefact produced; on `ungraded` it is left unvouched, not rejected. */
  readonly artefact: A;
}

/** The message a loop gives when a grader abstains. */
export const ungradedMessage = 'ungraded: oracle too thin to certify';

/** The parts of a loop: how to make an attempt, how to grade it, and how many tries. */
export interface GradeLoopOptions<A> {
  /** Produces an artefact; sees the previous grade so a retry can use its reason. */
  readonly attempt: (previous: Grade | undefined, attemptNumber: number) => Promise<A>;
  readonly grade: (artefact: A) => Promise<Grade>;
  /** At least 1. */
  readonly maxAttempts: number;
}

/**
 * Produces and grades until the verdict ends it. Only WRONG is retried; UNSOUND stops and is
 * flagged (the grader was gamed, retrying teaches gaming); ABSTAIN stops and says the work is
 * ungraded, so a thin oracle never burns retries on a model that did not err.
 */
export async function gradeLoop<A>(options: GradeLoopOptions<A>): Promise<GradeLoopOutcome<A>> {
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts));
  const grades: Grade[] = [];
  let previous: Grade | undefined;
  for (let attemptNumber = 1; ; attemptNumber += 1) {
    const artefact = await options.attempt(previous, attemptNumber);
    const grade = await options.grade(artefact);
    grades.push(grade);
    previous = grade;
    switch (grade.verdict) {
      case 'CORRECT':
        return {
          status: 'certified',
          message: `CORRECT on attempt ${attemptNumber}: ${grade.reason}`,
          grades,
          artefact,
        };
      case 'UNSOUND':
        return {
          status: 'flagged',
          message: `UNSOUND, flagged and not retried: ${grade.reason}`,
          grades,
          artefact,
        };
      case 'ABSTAIN':
        return {
          status: 'ungraded',
          message: `${ungradedMessage} (${grade.reason}); the artefact is left unvouched`,
          grades,
          artefact,
        };
      case 'WRONG':
        if (!retryMayHelp(grade.verdict) || attemptNumber >= maxAttempts) {
          return {
            status: 'failed',
            message: `WRONG after ${attemptNumber} attempt${attemptNumber === 1 ? '' : 's'}: ${grade.reason}`,
            grades,
            artefact,
          };
        }
    }
  }
}
