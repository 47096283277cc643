import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeGrade } from './grade.js';
import { gradeLoop, ungradedMessage } from './grade-loop.js';
import { type Verdict, verdicts } from './verdict.js';

const grader = { id: 'scripted', hash: 'none' };

/** A loop whose grader answers a scripted sequence of verdicts. */
async function run(script: readonly Verdict[], maxAttempts: number) {
  let attempts = 0;
  const outcome = await gradeLoop({
    maxAttempts,
    attempt: async (_previous, attemptNumber) => {
      attempts += 1;
      return attemptNumber;
    },
    grade: async (artefact) =>
      makeGrade(grader, script[(artefact - 1) % script.length] as Verdict, `try ${artefact}`),
  });
  return { outcome, attempts };
}

describe('the grading loop', () => {
  it('retries only WRONG, and stops at the first verdict a retry cannot change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...verdicts), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 10 }),
        async (script, maxAttempts) => {
          const { outcome, attempts } = await run(script, maxAttempts);
          const firstFinal = script.findIndex((verdict) => verdict !== 'WRONG');
          // The script repeats, so a WRONG-only script keeps failing until the attempts run out.
          const expected = firstFinal === -1 ? maxAttempts : Math.min(firstFinal + 1, maxAttempts);
          expect(attempts).toBe(expected);
          expect(outcome.grades).toHaveLength(attempts);
          const last = outcome.grades.at(-1)?.verdict;
          expect(outcome.status).toBe(
            { CORRECT: 'certified', WRONG: 'failed', UNSOUND: 'flagged', ABSTAIN: 'ungraded' }[
              last as Verdict
            ],
          );
          // Every grade before the last was a WRONG: nothing else is ever retried.
          for (const grade of outcome.grades.slice(0, -1)) expect(grade.verdict).toBe('WRONG');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stops on ABSTAIN and says the work is ungraded, not failed', async () => {
    const { outcome, attempts } = await run(['ABSTAIN'], 5);
    expect(attempts).toBe(1);
    expect(outcome.status).toBe('ungraded');
    expect(outcome.message).toContain(ungradedMessage);
    expect(ungradedMessage).toBe('ungraded: oracle too thin to certify');
  });

  it('flags UNSOUND without another attempt', async () => {
    const { outcome, attempts } = await run(['WRONG', 'UNSOUND', 'CORRECT'], 5);
    expect(attempts).toBe(2);
    expect(outcome.status).toBe('flagged');
  });

  it('gives up after the last allowed WRONG', async () => {
    const { outcome, attempts } = await run(['WRONG'], 3);
    expect(attempts).toBe(3);
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toContain('WRONG after 3 attempts');
  });
});
