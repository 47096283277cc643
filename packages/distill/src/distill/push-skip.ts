import { episodeSource } from '../build-episode.js';
import type { SentCorrection } from '../ground-corrections.js';
import { connectForPush, pushFailed } from './connect-for-push.js';
import type { DistillRun } from './distill-run.js';
import { markSession } from './ledger-steps.js';
import type { SessionResult } from './session-outcome.js';

/**
 * A session the model said to skip: its corrections (from a clean session only) still go to
 * the graph, then the session is marked `skipped`, all under the ledger's lock.
 */
export function pushSkip(
  run: DistillRun,
  index: number,
  session: { readonly sessionId: string; readonly endedAt: string; readonly clean: boolean },
  corrections: readonly SentCorrection[],
): Promise<SessionResult> {
  const { sessionId, endedAt, clean } = session;
  return run.ledger.under(sessionId, async (ledger) => {
    if (clean && corrections.length > 0) {
      const connected = await connectForPush(run, index, sessionId);
      if ('outcome' in connected) return connected;
      run.graph.calls += 1;
      const answered = await connected.correct({
        source: episodeSource,
        source_id: sessionId,
        occurred_at: endedAt,
        corrections,
      });
      if (answered._tag === 'Left') return pushFailed(run, sessionId, answered.left);
      run.tally.landed(answered.right);
    }
    return markSession(ledger, sessionId, 'skipped', { sessionId, outcome: 'skipped' });
  });
}
