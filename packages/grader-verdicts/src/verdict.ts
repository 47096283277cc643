/**
 * The four verdicts every grader speaks, in code order: CORRECT (earned, judged outside the
 * model), WRONG (model-fixable), UNSOUND (the grader was gamed), ABSTAIN (too thin to certify).
 */
export const verdicts = ['CORRECT', 'WRONG', 'UNSOUND', 'ABSTAIN'] as const;

/** One of the four verdicts. */
export type Verdict = (typeof verdicts)[number];

/** The verdict's numeric code (0–3), stable across releases because stores keep it. */
export function verdictCode(verdict: Verdict): 0 | 1 | 2 | 3 {
  return verdicts.indexOf(verdict) as 0 | 1 | 2 | 3;
}

/** Reads a verdict from untrusted text; anything but an exact name is not a verdict. */
export function parseVerdict(text: string): Verdict | undefined {
  return (verdicts as readonly string[]).includes(text) ? (text as Verdict) : undefined;
}

/**
 * Whether another attempt could change the verdict. Only WRONG is fixable by retrying: an
 * UNSOUND result needs a flag, and an ABSTAIN needs a better oracle, not another try.
 */
export function retryMayHelp(verdict: Verdict): boolean {
  return verdict === 'WRONG';
}
