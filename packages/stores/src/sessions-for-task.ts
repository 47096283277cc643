import type { MechaHome } from './home-context.js';

/** The sessions that worked a task, and how completely the store could be read to say so. */
export type SessionsForTask =
  | {
      readonly state: 'read' | 'partial';
      /** Sessions with a run whose `run_start.goal` is this task, in listing order. */
      readonly sessionIds: readonly string[];
      /** Sessions whose transcript could not be read, so they may have worked it too. */
      readonly unreadable: readonly string[];
    }
  | { readonly state: 'unreadable'; readonly reason: string };

/**
 * Finds the sessions that worked a task: those with a run whose `run_start.goal` is
 * `{ kind: 'task', id }`. Lets a surface close a task without being told its sessions. One pass
 * over the session store, every transcript opened once and only its run starts kept.
 */
export async function sessionsForTask(home: MechaHome, taskId: string): Promise<SessionsForTask> {
  const sessionIds: string[] = [];
  const unreadable: string[] = [];
  const listing = await home.sessions.scan({
    population: 'every',
    events: ['run_start'],
    visit: (entry, transcript) => {
      if (transcript.state === 'unreadable') {
        unreadable.push(entry.sessionId);
        return;
      }
      const worked = transcript.records.some(
        (event) =>
          event.type === 'run_start' && event.goal?.kind === 'task' && event.goal.id === taskId,
      );
      if (worked) sessionIds.push(entry.sessionId);
    },
  });
  if (listing.state === 'unreadable') return { state: 'unreadable', reason: listing.reason };
  return {
    state: listing.state === 'partial' || unreadable.length > 0 ? 'partial' : 'read',
    sessionIds,
    unreadable,
  };
}
