import type { GraphConnection, GraphRefusal } from '../graph-client.js';
import type { DistillRun } from './distill-run.js';
import type { SessionResult } from './session-outcome.js';

/**
 * The graph connection for a session's push, or the session's `push_failed` result, with the
 * run told to stop (a graph that cannot be reached will not be reached by the next session).
 */
export async function connectForPush(
  run: DistillRun,
  index: number,
  sessionId: string,
): Promise<GraphConnection | SessionResult> {
  run.progress(index, sessionId, 'pushing');
  const connected = await run.graph.connect();
  if (typeof connected !== 'string') return connected;
  run.stop.note({ reason: 'graph_unavailable', message: connected });
  return { sessionId, outcome: 'push_failed', reason: connected };
}

/** A failed graph call's result; a lost connection stops the run. */
export function pushFailed(
  run: DistillRun,
  sessionId: string,
  failed: GraphRefusal,
): SessionResult {
  if (failed.kind === 'connection_lost') {
    run.stop.note({ reason: 'graph_unavailable', message: failed.message });
  }
  return { sessionId, outcome: 'push_failed', reason: failed.message };
}
