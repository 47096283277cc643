import { randomBytes } from 'node:crypto';
import {
  type AppraisalPorts,
  appraiseClosure,
  appraiseProject,
  type BoardRecord,
  type BoardTask,
  type ClosureAppraisal,
} from '@mecha/appraisal-core';
import { closeTask, type MechaHome, reopenTask } from '@mecha/stores';
import type { CommandContext } from './cli-io.js';
import { exitCodes } from './command.js';
import { isLeft } from './either.js';
import { runHook } from './hooks.js';
import type { RunPresence } from './run-registration.js';
import { stripControl } from './sanitize.js';

/** Who is moving the task, as the registration says: the owner, or a run a person is in. */
export interface Mover {
  readonly who: 'owner' | 'agent_with_approval';
  readonly surface: string;
}

/** The mover for a presence, or why the move is refused: nobody present, or unverifiable. */
export function moverFor(
  presence: RunPresence,
): { readonly ok: true; readonly mover: Mover } | { readonly ok: false; readonly message: string } {
  switch (presence.kind) {
    case 'terminal':
      return { ok: true, mover: { who: 'owner', surface: 'cli' } };
    case 'run':
      return presence.personPresent
        ? { ok: true, mover: { who: 'agent_with_approval', surface: presence.surface } }
        : {
            ok: false,
            message: `refused: run ${presence.runId} is registered with nobody present, and closing or reopening a task is a person's act`,
          };
    case 'unverifiable':
      return {
        ok: false,
        message: `refused: this command was started by a run whose registration cannot be checked (${presence.reason}), so it counts as nobody present`,
      };
  }
}

const isOpen = (row: BoardRecord): row is BoardTask =>
  row.kind === 'task' && row.status !== 'done' && row.status !== 'dropped';

function newTaskId(board: readonly BoardRecord[]): string {
  const taken = new Set(board.map((row) => row.id));
  for (;;) {
    const id = `task-${randomBytes(4).toString('hex')}`;
    if (!taken.has(id)) return id;
  }
}

/** What closing a task did, for the caller that goes on (the demo) and for the exit code. */
export interface ClosedTask {
  readonly code: number;
  readonly appraisal?: ClosureAppraisal;
}

/**
 * The owner's closure, composed from the packages: appraise the sessions that did the work
 * (nothing written), let `pre_task_close` refuse, write the closure record and then the board
 * (stores' `closeTask`, which refuses with nobody present and leaves the board alone when the
 * record cannot be written), print the closure line, stage at most one follow-up when the
 * core's predicate holds, tell `task_closed`, and read the project when this was its last open
 * task.
 */
export async function closeFlow(
  context: CommandContext,
  home: MechaHome,
  ports: AppraisalPorts,
  request: {
    readonly task: BoardTask;
    readonly board: readonly BoardRecord[];
    readonly to: 'done' | 'dropped';
    readonly sessionIds: readonly string[];
    readonly mover: Mover;
  },
): Promise<ClosedTask> {
  const { task, to, mover } = request;
  const say = (text: string) => context.stdout(`${text}\n`);
  const fail = (text: string): ClosedTask => {
    context.stderr(`mecha tasks set: ${text}\n`);
    return { code: exitCodes.failure };
  };
  const appraisal = await appraiseClosure(ports, {
    taskId: task.id,
    to,
    sessionIds: request.sessionIds,
    ...(task.project_id === undefined ? {} : { projectId: task.project_id }),
  });
  const hookPayload = {
    hook: 'pre_task_close',
    task_id: task.id,
    from: task.status,
    to,
    session_ids: request.sessionIds,
    who: mover.who,
    surface: mover.surface,
    appraisal_line: appraisal.line,
  };
  const pre = runHook(home.path, 'pre_task_close', hookPayload, context.env);
  if (pre.kind === 'failed') return fail(`refused by hooks/pre_task_close: ${pre.message}`);

  const closed = await closeTask(home, {
    taskId: task.id,
    to,
    sessionIds: request.sessionIds,
    who: mover.who,
    surface: mover.surface,
    personPresent: true,
    appraisalLine: appraisal.line,
  });
  if (isLeft(closed)) return fail(`task ${task.id} was not closed: ${closed.left.message}`);
  const closure = closed.right;
  say(`Closed ${task.id}: ${task.status} → ${to} (closure ${closure.closure_id}).`);
  say(appraisal.line);

  let code: number = exitCodes.ok;
  let followUp: { readonly task_id: string; readonly title: string } | null = null;
  if (appraisal.follow_up !== null) {
    const id = newTaskId(request.board);
    const staged = await home.board.put([
      {
        v: 1,
        kind: 'task',
        id,
        title: appraisal.follow_up.title,
        status: 'inbox',
        ...(appraisal.follow_up.project_id === undefined
          ? {}
          : { project_id: appraisal.follow_up.project_id }),
      },
    ]);
    if (isLeft(staged)) {
      context.stderr(
        `mecha tasks set: the closure stands, but its follow-up could not be staged: ${staged.left.message}\n`,
      );
      code = exitCodes.failure;
    } else {
      followUp = { task_id: id, title: appraisal.follow_up.title };
      say(`Staged one follow-up: ${id} "${appraisal.follow_up.title}" (inbox).`);
    }
  }

  const told = runHook(
    home.path,
    'task_closed',
    { hook: 'task_closed', closure, appraisal, follow_up: followUp },
    context.env,
  );
  if (told.kind === 'failed')
    context.stderr(`mecha tasks set: hooks/task_closed failed: ${told.message}\n`);

  const projectId = task.project_id;
  if (projectId !== undefined) {
    const othersOpen = request.board.some(
      (row) => isOpen(row) && row.id !== task.id && row.project_id === projectId,
    );
    if (!othersOpen) {
      const project = await appraiseProject(ports, projectId, {
        followUpStaged: followUp !== null && appraisal.follow_up?.project_id === projectId,
      });
      say(`That was the last open task of ${projectId}.`);
      say(project.line);
    }
  }
  return { code, appraisal };
}

/** The owner's reopen: stores' `reopenTask` (the record first, then the board), then `task_reopened` is told. */
export async function reopenFlow(
  context: CommandContext,
  home: MechaHome,
  request: {
    readonly task: BoardTask;
    readonly to: 'inbox' | 'next' | 'waiting';
    readonly reason?: string;
    readonly mover: Mover;
  },
): Promise<number> {
  const { task, to, mover } = request;
  const reopened = await reopenTask(home, {
    taskId: task.id,
    to,
    who: mover.who,
    surface: mover.surface,
    personPresent: true,
    ...(request.reason === undefined ? {} : { reason: request.reason }),
  });
  if (isLeft(reopened)) {
    context.stderr(`mecha tasks set: task ${task.id} was not reopened: ${reopened.left.message}\n`);
    return exitCodes.failure;
  }
  const closure = reopened.right;
  const undoes = closure.reopens === undefined ? '' : `, undoing ${closure.reopens}`;
  context.stdout(
    `Reopened ${task.id}: ${task.status} → ${to} (closure ${closure.closure_id}${undoes}).\n`,
  );
  if (task.status === 'done' && closure.session_ids.length > 0) {
    context.stdout(
      `The done closure's credit is withdrawn, and the reopen signs against ${closure.session_ids.length === 1 ? 'the session' : `the ${closure.session_ids.length} sessions`} it named.\n`,
    );
  }
  const told = runHook(home.path, 'task_reopened', { hook: 'task_reopened', closure }, context.env);
  if (told.kind === 'failed') {
    context.stderr(`mecha tasks set: hooks/task_reopened failed: ${stripControl(told.message)}\n`);
  }
  return exitCodes.ok;
}
