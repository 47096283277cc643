/** Which sessions a readout covers. */
export interface PopulationOptions {
  /** The moment the readout is taken; nothing reads the clock. */
  readonly now: Date;
  /** Only sessions begun within this many days before `now`; all when absent. */
  readonly days?: number;
  /**
   * A recorded surface (`web`, `task`, …) to narrow to; `test` selects development sessions
   * (and implies `includeTests`), `experiment` selects experiment sessions.
   */
  readonly kind?: string;
  /** Count development (`test`) sessions too. Experiment sessions are never in the ordinary corpus. */
  readonly includeTests?: boolean;
}
