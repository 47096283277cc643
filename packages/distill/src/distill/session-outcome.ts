/**
 * What one session came to in a run. `pushed`, `skipped`, `too_short` and `given_up` are marked
 * done in the ledger; a `model_failed` whose failure repeats on every try is counted there too.
 */
export type SessionOutcome =
  | 'pushed'
  | 'skipped'
  | 'too_short'
  | 'push_failed'
  | 'model_failed'
  | 'given_up'
  | 'unreadable'
  | 'running'
  | 'parked'
  | 'already_distilled'
  | 'not_marked'
  | 'ledger_unavailable'
  | 'would_distill'
  | 'would_mark_too_short';

/** Every outcome, in the order a report lists them. */
export const sessionOutcomes: readonly SessionOutcome[] = [
  'pushed',
  'skipped',
  'too_short',
  'push_failed',
  'model_failed',
  'given_up',
  'unreadable',
  'running',
  'parked',
  'already_distilled',
  'not_marked',
  'ledger_unavailable',
  'would_distill',
  'would_mark_too_short',
];

/** One session's line in the report. */
export interface SessionResult {
  readonly sessionId: string;
  readonly outcome: SessionOutcome;
  /** Why, for an outcome that leaves the session to a later run. */
  readonly reason?: string;
  /** What `kg_upsert` said, for a pushed session. */
  readonly graph?: 'inserted' | 'updated' | 'unchanged';
}
