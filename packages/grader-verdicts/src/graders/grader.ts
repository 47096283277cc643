/** What every grader reports while it works; a test or a progress bar can listen. */
export type GraderProgress = (step: string) => void;

/** Options every grader takes. */
export interface GradeOptions {
  readonly onProgress?: GraderProgress;
  /** Parallel test runs at most (mutation grader); the core count by default. */
  readonly concurrency?: number;
  /** A single test run is killed after this long; default 20 s. */
  readonly timeoutMs?: number;
}
