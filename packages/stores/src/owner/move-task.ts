import type { TaskStatus } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { isClosedStatus } from '../board-store.js';
import {
  type ClosedFromSurface,
  closeTaskFromSurface,
  type ReopenedFromSurface,
  reopenTaskFromSurface,
  type SurfaceRefusal,
} from '../close-task-from-surface.js';
import type { MechaHome } from '../home-context.js';
import { findByPrefix } from './find-by-prefix.js';
import { findTask } from './find-task.js';
import { type OwnerRefusal, ownerRefusal } from './owner-refusal.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A request from any surface to move a task (an id or a unique prefix of one) to a status. */
export interface MoveTaskRequest {
  readonly query: string;
  readonly to: TaskStatus;
  /** Where the owner acted (`cli`, `web`, `slack`). */
  readonly surface: string;
  /** The environment the request came from (a run's shell names its run there). */
  readonly env: Env;
  /** The sessions that did the work, for a close; looked up from the runs' goals when absent or empty. */
  readonly sessionIds?: readonly string[];
  /** Why a closed task is reopened, in the owner's words. */
  readonly reason?: string;
}

/** A task moved between open statuses, render-ready. */
export interface MovedTask {
  readonly state: 'moved';
  readonly taskId: string;
  readonly from: TaskStatus;
  readonly to: TaskStatus;
  /** `Moved task-…: inbox → next.` */
  readonly line: string;
}

/** Everything a move can come to. */
export type TaskMove =
  | MovedTask
  | ClosedFromSurface
  | ReopenedFromSurface
  | SurfaceRefusal
  | OwnerRefusal;

/**
 * The board's transitions, the one path every surface takes: between open statuses a task
 * simply moves; into `done` or `dropped` it closes through {@link closeTaskFromSurface}; out
 * of them it reopens through {@link reopenTaskFromSurface}. A closed task is reopened before
 * it is closed again; a reason is for a reopen and sessions are for a close.
 */
export async function moveTask(home: MechaHome, request: MoveTaskRequest): Promise<TaskMove> {
  const board = await home.board.read();
  if (board.state === 'unreadable') {
    return ownerRefusal('unreadable', `the board could not be read: ${board.reason}`);
  }
  const found = findTask(board.records, request.query);
  if (found.state === 'refused') return found;
  const { task } = found;
  const { to } = request;
  const sessionsGiven = request.sessionIds !== undefined && request.sessionIds.length > 0;
  if (task.status === to) {
    return ownerRefusal('unchanged', `${task.id} is already ${to}: nothing changed`);
  }
  const from = task.status;
  if (request.reason !== undefined && !(isClosedStatus(from) && !isClosedStatus(to))) {
    return ownerRefusal('bad_request', '--reason is for reopening a closed task');
  }
  if (!isClosedStatus(to) && sessionsGiven) {
    return ownerRefusal('bad_request', '--session is for closing a task');
  }
  if (!isClosedStatus(to) && !isClosedStatus(from)) {
    const put = await home.board.put([{ ...task, status: to }]);
    if (E.isLeft(put)) {
      return ownerRefusal('not_written', `${task.id} was not moved: ${put.left.message}`);
    }
    return {
      state: 'moved',
      taskId: task.id,
      from,
      to,
      line: `Moved ${task.id}: ${from} → ${to}.`,
    };
  }
  if (!isClosedStatus(to)) {
    return reopenTaskFromSurface(home, {
      taskId: task.id,
      to: to as 'inbox' | 'next' | 'waiting',
      surface: request.surface,
      env: request.env,
      ...(request.reason === undefined ? {} : { reason: request.reason }),
    });
  }
  if (isClosedStatus(from)) {
    return ownerRefusal(
      'unchanged',
      `${task.id} is already ${from}: reopen it before closing it again`,
    );
  }
  let sessionIds: string[] | undefined;
  if (sessionsGiven) {
    const resolved = await resolveSessions(home, request.sessionIds ?? []);
    if (!Array.isArray(resolved)) return resolved;
    sessionIds = resolved;
  }
  return closeTaskFromSurface(home, {
    taskId: task.id,
    to: to as 'done' | 'dropped',
    surface: request.surface,
    env: request.env,
    ...(sessionIds === undefined ? {} : { sessionIds }),
  });
}

/**
 * Resolves the sessions a closure names (ids or unique prefixes) against the session store, so
 * an unknown or ambiguous id is refused before anything is written to the append-only log.
 */
async function resolveSessions(
  home: MechaHome,
  given: readonly string[],
): Promise<string[] | OwnerRefusal> {
  const listing = await home.sessions.list();
  if (listing.state === 'unreadable') {
    return ownerRefusal(
      'unreadable',
      `the sessions could not be listed to check --session (${listing.reason})`,
    );
  }
  const ids = listing.records.map((entry) => entry.sessionId);
  const resolved: string[] = [];
  for (const query of given) {
    const match = findByPrefix(ids, query);
    if (match.state === 'none') {
      return ownerRefusal(
        'bad_request',
        `--session ${query}: no session of this home has that id or prefix`,
      );
    }
    if (match.state === 'ambiguous') {
      return ownerRefusal(
        'bad_request',
        `--session ${query} matches ${match.candidates.length} sessions (${match.candidates.slice(0, 3).join(', ')}${match.candidates.length > 3 ? ', …' : ''}): give more of the id`,
      );
    }
    if (!resolved.includes(match.id)) resolved.push(match.id);
  }
  return resolved;
}
