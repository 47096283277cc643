/** The work limits of one appraisal run: how much it may read and produce, not what it keeps. */
export interface AppraisalLimits {
  readonly pagesPerSequence: number;
  /** Tokens each of the two calls may generate. */
  readonly outputTokens: number;
  /** Model calls one run may make before it yields. */
  readonly ticks: number;
  /** Sources one run takes from the queue. */
  readonly sourceRows: number;
  /** UTF-8 bytes of a prompt; a larger one is refused before any model call. */
  readonly promptBytes: number;
  /** UTF-8 bytes each call's answer may have. */
  readonly outputBytesPerCall: number;
  /** Recall's similarity floor, in millionths. */
  readonly recallFloor: number;
  /** The most appraisal priority recall may add, in millionths. */
  readonly recallPriority: number;
}

/** Each source permits at most this many calls to the same model. */
export const callsPerSource = 2;

/** The limits a new configuration starts with. */
export const defaultAppraisalLimits: AppraisalLimits = {
  pagesPerSequence: 160,
  outputTokens: 512,
  ticks: 16_384,
  sourceRows: 64,
  promptBytes: 8192,
  outputBytesPerCall: 4096,
  recallFloor: 0,
  recallPriority: 250_000,
};

/** A limit that was refused, naming the field and the accepted range. */
export interface LimitProblem {
  readonly field: keyof AppraisalLimits;
  readonly message: string;
}

const unbounded = Number.MAX_SAFE_INTEGER;

/** Each limit's accepted range, inclusive; an upper bound of `Number.MAX_SAFE_INTEGER` is none. */
export const appraisalLimitRanges: Readonly<
  Record<keyof AppraisalLimits, readonly [min: number, max: number]>
> = {
  pagesPerSequence: [1, unbounded],
  outputTokens: [1, 4096],
  ticks: [1, unbounded],
  sourceRows: [1, 64],
  promptBytes: [1, unbounded],
  outputBytesPerCall: [1, 4096],
  recallFloor: [0, 1_000_000],
  recallPriority: [0, 1_000_000],
};

/**
 * Checks limits before anything is reserved: rows 1–64, output tokens 1–4096, output bytes per
 * call 1–4096, recall floor and priority 0–1,000,000, the rest positive integers. Returns every
 * problem at once, empty when the limits are accepted.
 */
export function validateAppraisalLimits(limits: AppraisalLimits): LimitProblem[] {
  const problems: LimitProblem[] = [];
  for (const field of Object.keys(appraisalLimitRanges) as (keyof AppraisalLimits)[]) {
    const [min, max] = appraisalLimitRanges[field];
    const value = limits[field];
    if (!Number.isInteger(value) || value < min || value > max) {
      const range = max === unbounded ? `a positive integer` : `an integer from ${min} to ${max}`;
      problems.push({ field, message: `${field} must be ${range}, got ${value}` });
    }
  }
  return problems;
}
