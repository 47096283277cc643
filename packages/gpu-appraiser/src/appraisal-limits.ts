/** The work limits of one appraisal run: how much it may read and produce, not what it keeps. */
export interface AppraisalLimits {
  readonly pagesPerSequence: number;
  readonly outputTokens: number;
  readonly ticks: number;
  readonly sourceRows: number;
}

/** The limits a new configuration starts with. */
export const defaultAppraisalLimits: AppraisalLimits = {
  pagesPerSequence: 160,
  outputTokens: 512,
  ticks: 16_384,
  sourceRows: 64,
};

/** A limit that was refused, naming the field and the accepted range. */
export interface LimitProblem {
  readonly field: keyof AppraisalLimits;
  readonly message: string;
}

const ranges: Record<keyof AppraisalLimits, readonly [number, number]> = {
  pagesPerSequence: [1, Number.MAX_SAFE_INTEGER],
  outputTokens: [1, 4096],
  ticks: [1, Number.MAX_SAFE_INTEGER],
  sourceRows: [1, 64],
};

/**
 * Checks limits before anything is reserved: rows 1–64, output tokens 1–4096, pages and ticks
 * positive integers. Returns every problem at once, empty when the limits are accepted.
 */
export function validateAppraisalLimits(limits: AppraisalLimits): LimitProblem[] {
  const problems: LimitProblem[] = [];
  for (const field of Object.keys(ranges) as (keyof AppraisalLimits)[]) {
    const [min, max] = ranges[field];
    const value = limits[field];
    if (!Number.isInteger(value) || value < min || value > max) {
      const range =
        max === Number.MAX_SAFE_INTEGER ? `a positive integer` : `an integer from ${min} to ${max}`;
      problems.push({ field, message: `${field} must be ${range}, got ${value}` });
    }
  }
  return problems;
}
