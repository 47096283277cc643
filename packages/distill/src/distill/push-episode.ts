import { textAppraisalRecordSchema } from '@mecha/appraisal-core';
import type { Episode } from '../build-episode.js';
import type { TextAppraisal } from '../text-appraisal.js';
import { connectForPush, pushFailed } from './connect-for-push.js';
import type { DistillRun } from './distill-run.js';
import { markSession } from './ledger-steps.js';
import type { SessionResult } from './session-outcome.js';

/**
 * Under the ledger's lock: keeps the text appraisal (a failed write is counted, not fatal),
 * upserts the episode to the graph, and marks the session `pushed`.
 */
export function pushEpisode(
  run: DistillRun,
  index: number,
  sessionId: string,
  episode: Episode,
  appraisal: TextAppraisal | undefined,
): Promise<SessionResult> {
  return run.ledger.under(sessionId, async (ledger) => {
    if (appraisal !== undefined) {
      const stored = await run.home.appraisals.textAppraisals.append([appraisal.record]);
      if (stored._tag === 'Left') run.tally.appraisals.failed += 1;
      else {
        run.tally.appraisalWritten(appraisal);
        const kept = textAppraisalRecordSchema.safeParse(appraisal.record);
        if (kept.success) run.appraisedNow.push(kept.data);
      }
    }
    const connected = await connectForPush(run, index, sessionId);
    if ('outcome' in connected) return connected;
    run.graph.calls += 1;
    const pushed = await connected.upsert(episode);
    if (pushed._tag === 'Left') return pushFailed(run, sessionId, pushed.left);
    run.tally.graph[pushed.right.outcome] += 1;
    if (pushed.right.corrections !== null) run.tally.landed(pushed.right.corrections);
    return markSession(ledger, sessionId, 'pushed', {
      sessionId,
      outcome: 'pushed',
      graph: pushed.right.outcome,
    });
  });
}
