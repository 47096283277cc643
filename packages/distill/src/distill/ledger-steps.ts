import {
  type DistilledOutcome,
  type DistillLedger,
  type MechaHome,
  withDistillLedger,
} from '@mecha/stores';
import type { SessionResult } from './session-outcome.js';

/**
 * The ledger's part in a run: each session's last step runs under the ledger's lock after
 * checking that nobody marked it meanwhile, and `reads` counts the ledger reads (one to plan).
 */
export class LedgerSteps {
  reads = 1;

  constructor(private readonly home: MechaHome) {}

  /** Runs `work` under the ledger's lock, unless the session was marked meanwhile. */
  async under(
    sessionId: string,
    work: (ledger: DistillLedger) => Promise<SessionResult>,
  ): Promise<SessionResult> {
    this.reads += 1;
    const held = await withDistillLedger(this.home, async (ledger) => {
      const marked = ledger.isDistilled(sessionId);
      if (marked === undefined) {
        return {
          sessionId,
          outcome: 'ledger_unavailable' as const,
          reason: 'the ledger could not be read',
        };
      }
      if (marked) return { sessionId, outcome: 'already_distilled' as const };
      return work(ledger);
    });
    return held._tag === 'Left'
      ? { sessionId, outcome: 'ledger_unavailable', reason: held.left.message }
      : held.right;
  }
}

/** Tries a session gets by default when its failure repeats. */
export const defaultMaxAttempts = 3;

/**
 * A failure that will repeat on every try: counted in the ledger as one `failed` try, and once
 * the session has had `maxAttempts` of them, marked `given_up` so no later run asks the model
 * about it again.
 */
export function recordFailure(
  run: { readonly ledger: LedgerSteps; readonly options: { readonly maxAttempts?: number } },
  sessionId: string,
  reason: string,
): Promise<SessionResult> {
  const most = Math.max(1, run.options.maxAttempts ?? defaultMaxAttempts);
  return run.ledger.under(sessionId, async (ledger) => {
    const tries = ledger.failures(sessionId) + 1;
    if (tries >= most) {
      const given = `given up after ${tries} ${tries === 1 ? 'try' : 'tries'}: ${reason}`;
      const written = await ledger.mark(sessionId, 'given_up', given);
      return written._tag === 'Left'
        ? { sessionId, outcome: 'not_marked', reason: `${given}, but the ledger mark failed` }
        : { sessionId, outcome: 'given_up', reason: given };
    }
    await ledger.mark(sessionId, 'failed', reason);
    return { sessionId, outcome: 'model_failed', reason: `${reason} (try ${tries} of ${most})` };
  });
}

/** Marks a session in the ledger; `result` when the mark is written, `not_marked` when not. */
export async function markSession(
  ledger: DistillLedger,
  sessionId: string,
  outcome: DistilledOutcome,
  result: SessionResult,
): Promise<SessionResult> {
  const written = await ledger.mark(sessionId, outcome);
  return written._tag === 'Left'
    ? {
        sessionId,
        outcome: 'not_marked',
        reason: `${outcome}, but the ledger mark failed: ${written.left.message}`,
      }
    : result;
}
