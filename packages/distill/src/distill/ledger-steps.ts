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
