import type { Task } from './board.js';
import { type Draw, day, hour, iso, minute } from './draw.js';
import type { HomeWriter } from './home-writer.js';

/**
 * The workflows (`workflows/workflows.jsonl`): a workflow started in its session and verified
 * at its end, then closed, cancelled or left open; a few closed ones are reopened days later.
 */
export function settleWorkflow(
  draw: Draw,
  writer: HomeWriter,
  session: {
    readonly workflowId: string;
    readonly sessionId: string;
    readonly startedAt: number;
    readonly endedAt: number;
    readonly task: Task | undefined;
  },
): void {
  const { random } = draw;
  const { workflowId, sessionId, startedAt, endedAt, task } = session;
  writer.add(startedAt + minute, 'workflows', {
    v: 1,
    type: 'started',
    at: iso(startedAt + minute),
    workflow_id: workflowId,
    session_id: sessionId,
    ...(task === undefined || !random.chance(0.5) ? {} : { task_id: task.id }),
  });
  writer.add(endedAt, 'workflows', {
    v: 1,
    type: 'verified',
    at: iso(endedAt),
    workflow_id: workflowId,
    check: random.chance(0.7) ? 'artifact' : 'delivery',
    passed: random.chance(0.8),
    session_id: sessionId,
  });
  const fate = random.weighted([
    ['closed', 60],
    ['cancelled', 15],
    ['open', 25],
  ] as const);
  if (fate !== 'open') {
    const at = endedAt + random.int(1, 48) * hour;
    writer.add(at, 'workflows', { v: 1, type: fate, at: iso(at), workflow_id: workflowId });
    if (fate === 'closed' && random.chance(0.1)) {
      const later = at + random.int(1, 10) * day;
      writer.add(later, 'workflows', {
        v: 1,
        type: 'reopened',
        at: iso(later),
        workflow_id: workflowId,
      });
    }
  }
}
