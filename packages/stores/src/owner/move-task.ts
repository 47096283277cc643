import type { BoardTask, TaskStatus } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { isClosedStatus } from '../board-store.js';
import {
  type ClosedFromSurface,
  closeTaskFromSurface,
  type ReopenedFromSurface,
  reopenTaskFromSurface,
} from '../close-task-from-surface.js';
import type { MechaHome } from '../home-context.js';
import { findByPrefix } from './find-by-prefix.js';
import { findTask } from './find-task.js';
import {
  type OwnerActRefusal,
  type OwnerRefusalKind,
  ownerRefused,
  type SurfaceRefusalKind,
} from './owner-refusal.js';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A request from any surface to move a task (an id or a unique prefix of one) to a status, to
 * another project, or both at once (re-file and close in one act).
 */
export interface MoveTaskRequest {
  readonly query: string;
  /** The status to move it to; absent keeps its status (a re-file only). */
  readonly to?: TaskStatus;
  /** The project to file it under first (a project id). */
  readonly projectId?: string;
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

/** A task filed under another project, its status unchanged, render-ready. */
export interface RefiledTask {
  readonly state: 'refiled';
  readonly taskId: string;
  readonly fromProject: string | undefined;
  readonly toProject: string;
  /** `Re-filed task-…: no project → p-books.` */
  readonly line: string;
}

/**
 * What a move that happened came to. A move that also re-filed the task carries `refiled`.
 */
export type TaskMove = (MovedTask | RefiledTask | ClosedFromSurface | ReopenedFromSurface) & {
  readonly refiled?: RefiledTask;
};

/**
 * Why a move did not happen: an owner's kinds, or those of the closure and reopen paths. A
 * move that re-filed the task before it was refused carries `refiled`: the re-file stands
 * (its message says so).
 */
export type TaskMoveRefusal = OwnerActRefusal<OwnerRefusalKind | SurfaceRefusalKind> & {
  readonly refiled?: RefiledTask;
};

/** A status move, on its own: what {@link moveTask} answers before any re-file. */
type StatusMove = E.Either<
  OwnerActRefusal<OwnerRefusalKind | SurfaceRefusalKind>,
  MovedTask | ClosedFromSurface | ReopenedFromSurface
>;

/**
 * The board's transitions, the one path every surface takes: between open statuses a task
 * simply moves; into `done` or `dropped` it closes through {@link closeTaskFromSurface}; out
 * of them it reopens through {@link reopenTaskFromSurface}. A closed task is reopened before
 * it is closed again; a reason is for a reopen and sessions are for a close.
 */
export async function moveTask(
  home: MechaHome,
  request: MoveTaskRequest,
): Promise<E.Either<TaskMoveRefusal, TaskMove>> {
  const board = await home.board.read();
  if (board.state === 'unreadable') {
    return ownerRefused('unreadable', `the board could not be read: ${board.reason}`);
  }
  const found = findTask(board.records, request.query);
  if (E.isLeft(found)) return found;
  const task = found.right;
  const { to, projectId } = request;
  if (to === undefined && projectId === undefined) {
    return ownerRefused('bad_request', 'say where to move it: a status, a project, or both');
  }
  if (projectId === undefined || projectId === task.project_id) {
    if (to === undefined || task.status === to) {
      const where = to === undefined ? `in project ${projectId}` : to;
      return ownerRefused('unchanged', `${task.id} is already ${where}: nothing changed`);
    }
    return moveStatus(home, task, { ...request, to });
  }
  // A closed task keeps the project its closure was appraised under; reopen it to re-file it.
  const reopening = to !== undefined && isClosedStatus(task.status) && !isClosedStatus(to);
  if (isClosedStatus(task.status) && !reopening) {
    return ownerRefused(
      'unchanged',
      `${task.id} is ${task.status}: reopen it to file it under another project`,
    );
  }
  if (reopening) {
    const reopened = await moveStatus(home, task, { ...request, to });
    if (E.isLeft(reopened)) return reopened;
    const refiled = await refile(home, { ...task, status: to }, projectId);
    if (E.isLeft(refiled)) {
      const { right } = reopened;
      return ownerRefused(
        refiled.left.kind,
        `${right.state === 'reopened' ? right.reopenLine : ''} It was not re-filed: ${refiled.left.message}`.trim(),
      );
    }
    return E.right({ ...reopened.right, refiled: refiled.right });
  }
  const refiled = await refile(home, task, projectId);
  if (E.isLeft(refiled) || to === undefined || to === task.status) return refiled;
  const moved = await moveStatus(home, { ...task, project_id: projectId }, { ...request, to });
  if (E.isLeft(moved)) {
    const { kind, message } = moved.left;
    return E.left({ kind, message: `${refiled.right.line} ${message}`, refiled: refiled.right });
  }
  return E.right({ ...moved.right, refiled: refiled.right });
}

/** Files an open task under another project; its status stays. */
async function refile(
  home: MechaHome,
  task: BoardTask,
  projectId: string,
): Promise<E.Either<OwnerActRefusal<'not_written'>, RefiledTask>> {
  const put = await home.board.put([{ ...task, project_id: projectId }]);
  if (E.isLeft(put)) {
    return ownerRefused('not_written', `${task.id} was not re-filed: ${put.left.message}`);
  }
  return E.right({
    state: 'refiled',
    taskId: task.id,
    fromProject: task.project_id,
    toProject: projectId,
    line: `Re-filed ${task.id}: ${task.project_id ?? 'no project'} → ${projectId}.`,
  });
}

/** The status part of a move, on a task already found. */
async function moveStatus(
  home: MechaHome,
  task: BoardTask,
  request: MoveTaskRequest & { readonly to: TaskStatus },
): Promise<StatusMove> {
  const { to } = request;
  const sessionsGiven = request.sessionIds !== undefined && request.sessionIds.length > 0;
  const from = task.status;
  if (request.reason !== undefined && !(isClosedStatus(from) && !isClosedStatus(to))) {
    return ownerRefused('bad_request', '--reason is for reopening a closed task');
  }
  if (!isClosedStatus(to) && sessionsGiven) {
    return ownerRefused('bad_request', '--session is for closing a task');
  }
  if (!isClosedStatus(to) && !isClosedStatus(from)) {
    const put = await home.board.put([{ ...task, status: to }]);
    if (E.isLeft(put)) {
      return ownerRefused('not_written', `${task.id} was not moved: ${put.left.message}`);
    }
    return E.right({
      state: 'moved',
      taskId: task.id,
      from,
      to,
      line: `Moved ${task.id}: ${from} → ${to}.`,
    });
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
    return ownerRefused(
      'unchanged',
      `${task.id} is already ${from}: reopen it before closing it again`,
    );
  }
  let sessionIds: string[] | undefined;
  if (sessionsGiven) {
    const resolved = await resolveSessions(home, request.sessionIds ?? []);
    if (E.isLeft(resolved)) return resolved;
    sessionIds = resolved.right;
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
): Promise<E.Either<OwnerActRefusal<'unreadable' | 'bad_request'>, string[]>> {
  const listing = await home.sessions.list();
  if (listing.state === 'unreadable') {
    return ownerRefused(
      'unreadable',
      `the sessions could not be listed to check --session (${listing.reason})`,
    );
  }
  const ids = listing.records.map((entry) => entry.sessionId);
  const resolved: string[] = [];
  for (const query of given) {
    const match = findByPrefix(ids, query);
    if (match.state === 'none') {
      return ownerRefused(
        'bad_request',
        `--session ${query}: no session of this home has that id or prefix`,
      );
    }
    if (match.state === 'ambiguous') {
      return ownerRefused(
        'bad_request',
        `--session ${query} matches ${match.candidates.length} sessions (${match.candidates.slice(0, 3).join(', ')}${match.candidates.length > 3 ? ', …' : ''}): give more of the id`,
      );
    }
    if (!resolved.includes(match.id)) resolved.push(match.id);
  }
  return E.right(resolved);
}
