import {
  appraiseClosure,
  appraiseProject,
  type BoardRecord,
  type BoardTask,
  type ClosureAppraisal,
  type ClosureRecord,
} from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { isClosedStatus } from './board-store.js';
import { closeTask, reopenTask } from './close-task.js';
import type { MechaHome } from './home-context.js';
import { homePorts } from './home-ports.js';
import { type HookName, runHook } from './hooks.js';
import { newTaskId } from './owner/new-task-id.js';
import {
  type OwnerActRefusal,
  ownerRefused,
  type SurfaceRefusalKind,
} from './owner/owner-refusal.js';
import { type Mover, moverFor, runPresence } from './run-registration.js';
import { sessionsForTask } from './sessions-for-task.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A request from any surface (CLI, web board, Slack) to close a task. */
export interface CloseFromSurfaceRequest {
  readonly taskId: string;
  readonly to: 'done' | 'dropped';
  /** Where the owner acted (`cli`, `web`, `slack`); a registered run's own surface wins. */
  readonly surface: string;
  /** The environment the request came from: `MECHA_SESSION_ID` + `MECHA_RUN_ID` name a run. */
  readonly env: Env;
  /** The sessions that did the work; looked up from the runs' goals when not given. */
  readonly sessionIds?: readonly string[];
}

/** A request from any surface to reopen a closed task. */
export interface ReopenFromSurfaceRequest {
  readonly taskId: string;
  readonly to: 'inbox' | 'next' | 'waiting';
  readonly surface: string;
  readonly env: Env;
  readonly reason?: string;
}

/** A hook that failed after the move; the move stands. */
export interface HookFailure {
  readonly hook: HookName;
  readonly message: string;
}

/** What happened to the follow-up a closure may stage. */
export type FollowUpOutcome =
  | { readonly state: 'none' }
  | { readonly state: 'staged'; readonly taskId: string; readonly title: string }
  | { readonly state: 'not_staged'; readonly title: string; readonly message: string };

/** A closed task, render-ready: the lines to show, the record, and what followed. */
export interface ClosedFromSurface {
  readonly state: 'closed';
  readonly closure: ClosureRecord;
  readonly appraisal: ClosureAppraisal;
  /** `Closed task-…: next → done (closure …).` */
  readonly closureLine: string;
  readonly appraisalLine: string;
  /** Where the sessions came from: named by the caller, or found from the runs' goals. */
  readonly sessionsFrom: 'given' | 'runs';
  readonly followUp: FollowUpOutcome;
  /** The project's reading, when this was its last open task. */
  readonly project: { readonly projectId: string; readonly line: string } | null;
  readonly hookFailures: readonly HookFailure[];
}

/** A reopened task, render-ready. */
export interface ReopenedFromSurface {
  readonly state: 'reopened';
  readonly closure: ClosureRecord;
  /** `Reopened task-…: done → next (closure …, undoing …).` */
  readonly reopenLine: string;
  /** Said when a done closure's credit is withdrawn; null otherwise. */
  readonly creditLine: string | null;
  readonly hookFailures: readonly HookFailure[];
}

/** Why a closure or a reopen from a surface did not happen. */
type SurfaceRefused = OwnerActRefusal<SurfaceRefusalKind>;

const isOpen = (row: BoardRecord): row is BoardTask =>
  row.kind === 'task' && !isClosedStatus(row.status);

/** The task to move and the board it is on, once the mover is known to be a person. */
interface OnBoard {
  readonly mover: Mover;
  readonly task: BoardTask;
  readonly board: readonly BoardRecord[];
}

/**
 * Who moves the task, from the run's registration (never what the caller says of itself), and
 * the task on the board.
 */
async function presentAndFound(
  home: MechaHome,
  request: { readonly taskId: string; readonly surface: string; readonly env: Env },
): Promise<E.Either<SurfaceRefused, OnBoard>> {
  const mover = moverFor(await runPresence(home, request.env), request.surface);
  if (E.isLeft(mover)) return mover;
  const board = await home.board.read();
  if (board.state === 'unreadable') {
    return ownerRefused('board_unreadable', `the board could not be read: ${board.reason}`);
  }
  const task = board.records.find(
    (row): row is BoardTask => row.kind === 'task' && row.id === request.taskId,
  );
  if (task === undefined) {
    return ownerRefused(
      'no_task',
      `there is no task ${JSON.stringify(request.taskId)} on the board`,
    );
  }
  return E.right({ mover: mover.right, task, board: board.records });
}

/** An open task that may close to `to`: one already closed is reopened first. */
function closable(
  task: BoardTask,
  to: CloseFromSurfaceRequest['to'],
): E.Either<SurfaceRefused, BoardTask> {
  if (task.status === to) {
    return ownerRefused('not_written', `${task.id} is already ${to}: nothing changed`);
  }
  if (isClosedStatus(task.status)) {
    return ownerRefused(
      'not_written',
      `${task.id} is already ${task.status}: reopen it before closing it again`,
    );
  }
  return E.right(task);
}

/** The sessions that did the work: the ones named, else those whose runs named the task. */
async function workSessions(
  home: MechaHome,
  task: BoardTask,
  given: readonly string[] | undefined,
): Promise<
  E.Either<
    SurfaceRefused,
    Pick<ClosedFromSurface, 'sessionsFrom'> & { readonly sessionIds: readonly string[] }
  >
> {
  if (given !== undefined) return E.right({ sessionIds: given, sessionsFrom: 'given' });
  const looked = await sessionsForTask(home, task.id);
  if (looked.state === 'unreadable') {
    return ownerRefused(
      'no_sessions',
      `the sessions that did ${task.id}'s work could not be looked up (${looked.reason}): name them with --session ID`,
    );
  }
  // A task no run worked on (one the owner never delegated) closes too: its closure line says
  // that no session worked it, and the project's reading counts it like any other.
  return E.right({ sessionIds: looked.sessionIds, sessionsFrom: 'runs' });
}

/** Stages at most one follow-up, the one the closure's appraisal names, in the inbox. */
async function stageFollowUp(
  home: MechaHome,
  board: readonly BoardRecord[],
  appraisal: ClosureAppraisal,
): Promise<FollowUpOutcome> {
  if (appraisal.follow_up === null) return { state: 'none' };
  const id = newTaskId(board);
  const { title, project_id } = appraisal.follow_up;
  const staged = await home.board.put([
    {
      v: 1,
      kind: 'task',
      id,
      title,
      status: 'inbox',
      ...(project_id === undefined ? {} : { project_id }),
    },
  ]);
  return E.isLeft(staged)
    ? {
        state: 'not_staged',
        title,
        message: `the closure stands, but its follow-up could not be staged: ${staged.left.message}`,
      }
    : { state: 'staged', taskId: id, title };
}

/** The project's reading, when the closed task was its last open one; else null. */
async function projectReading(
  ports: ReturnType<typeof homePorts>,
  board: readonly BoardRecord[],
  task: BoardTask,
  appraisal: ClosureAppraisal,
  followUp: FollowUpOutcome,
): Promise<ClosedFromSurface['project']> {
  const projectId = task.project_id;
  if (projectId === undefined) return null;
  const othersOpen = board.some(
    (row) => isOpen(row) && row.id !== task.id && row.project_id === projectId,
  );
  if (othersOpen) return null;
  const reading = await appraiseProject(ports, projectId, {
    followUpStaged: followUp.state === 'staged' && appraisal.follow_up?.project_id === projectId,
  });
  return { projectId, line: reading.line };
}

/**
 * The one closure path every surface takes. Checks presence from the run's registration (never
 * what the caller says of itself), appraises the sessions that did the work (nothing written),
 * lets `hooks/pre_task_close` refuse, writes the closure record and then the board, stages at
 * most one follow-up, tells `hooks/task_closed`, and reads the project when its last open task
 * closed.
 */
export async function closeTaskFromSurface(
  home: MechaHome,
  request: CloseFromSurfaceRequest,
): Promise<E.Either<OwnerActRefusal<SurfaceRefusalKind>, ClosedFromSurface>> {
  const { to } = request;
  const found = await presentAndFound(home, request);
  if (E.isLeft(found)) return found;
  const { mover, board } = found.right;
  const open = closable(found.right.task, to);
  if (E.isLeft(open)) return open;
  const task = open.right;
  const sessions = await workSessions(home, task, request.sessionIds);
  if (E.isLeft(sessions)) return sessions;
  const { sessionIds, sessionsFrom } = sessions.right;

  const ports = homePorts(home);
  const appraisal = await appraiseClosure(ports, {
    taskId: task.id,
    to,
    sessionIds,
    ...(task.project_id === undefined ? {} : { projectId: task.project_id }),
  });
  const pre = runHook(
    home.path,
    'pre_task_close',
    {
      hook: 'pre_task_close',
      task_id: task.id,
      from: task.status,
      to,
      session_ids: sessionIds,
      who: mover.who,
      surface: mover.surface,
      appraisal_line: appraisal.line,
    },
    request.env,
  );
  if (pre.kind === 'failed') {
    return ownerRefused('hook_refused', `refused by hooks/pre_task_close: ${pre.message}`);
  }

  const closed = await closeTask(home, {
    taskId: task.id,
    to,
    sessionIds,
    who: mover.who,
    surface: mover.surface,
    personPresent: true,
    appraisalLine: appraisal.line,
  });
  if (E.isLeft(closed)) {
    return ownerRefused('not_written', `task ${task.id} was not closed: ${closed.left.message}`);
  }
  const closure = closed.right;
  const followUp = await stageFollowUp(home, board, appraisal);
  const hookFailures: HookFailure[] = [];
  const told = runHook(
    home.path,
    'task_closed',
    {
      hook: 'task_closed',
      closure,
      appraisal,
      follow_up:
        followUp.state === 'staged' ? { task_id: followUp.taskId, title: followUp.title } : null,
    },
    request.env,
  );
  if (told.kind === 'failed') hookFailures.push({ hook: 'task_closed', message: told.message });
  return E.right({
    state: 'closed',
    closure,
    appraisal,
    closureLine: `Closed ${task.id}: ${task.status} → ${to} (closure ${closure.closure_id}).`,
    appraisalLine: appraisal.line,
    sessionsFrom,
    followUp,
    project: await projectReading(ports, board, task, appraisal, followUp),
    hookFailures,
  });
}

/**
 * Reopens a closed task from any surface: presence from the run's registration, the record
 * first and then the board (stores' `reopenTask`), then `hooks/task_reopened` is told.
 */
export async function reopenTaskFromSurface(
  home: MechaHome,
  request: ReopenFromSurfaceRequest,
): Promise<E.Either<OwnerActRefusal<SurfaceRefusalKind>, ReopenedFromSurface>> {
  const found = await presentAndFound(home, request);
  if (E.isLeft(found)) return found;
  const { mover, task } = found.right;
  const reopened = await reopenTask(home, {
    taskId: task.id,
    to: request.to,
    who: mover.who,
    surface: mover.surface,
    personPresent: true,
    ...(request.reason === undefined ? {} : { reason: request.reason }),
  });
  if (E.isLeft(reopened)) {
    return ownerRefused(
      'not_written',
      `task ${task.id} was not reopened: ${reopened.left.message}`,
    );
  }
  const closure = reopened.right;
  const undoes = closure.reopens === undefined ? '' : `, undoing ${closure.reopens}`;
  const count = closure.session_ids.length;
  const hookFailures: HookFailure[] = [];
  const told = runHook(home.path, 'task_reopened', { hook: 'task_reopened', closure }, request.env);
  if (told.kind === 'failed') hookFailures.push({ hook: 'task_reopened', message: told.message });
  return E.right({
    state: 'reopened',
    closure,
    reopenLine: `Reopened ${task.id}: ${task.status} → ${request.to} (closure ${closure.closure_id}${undoes}).`,
    creditLine:
      task.status === 'done' && count > 0
        ? `The done closure's credit is withdrawn, and the reopen signs against ${count === 1 ? 'the session' : `the ${count} sessions`} it named.`
        : null,
    hookFailures,
  });
}
