import { randomBytes } from 'node:crypto';
import {
  type BoardRecord,
  type BoardTask,
  idSchema,
  stripControl,
  type TaskStatus,
  taskStatusSchema,
} from '@mecha/appraisal-core';
import type { MechaHome } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { closeFlow, reopenFlow } from '../close-flow.js';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { isLeft } from '../either.js';
import { openCommandHome } from '../home.js';
import { flag, stringOption } from '../parse-command.js';
import { styleFor } from '../style.js';

const statuses = taskStatusSchema.options.join(', ');
const closed = (status: TaskStatus) => status === 'done' || status === 'dropped';
const tasksOf = (rows: readonly BoardRecord[]) =>
  rows.filter((row): row is BoardTask => row.kind === 'task');

/** The board's task with this id, or the only one it is a prefix of; else why not. */
export function findTask(
  rows: readonly BoardRecord[],
  query: string,
):
  | { readonly ok: true; readonly task: BoardTask }
  | { readonly ok: false; readonly message: string } {
  const tasks = tasksOf(rows);
  const exact = tasks.find((task) => task.id === query);
  if (exact !== undefined) return { ok: true, task: exact };
  const matches = tasks.filter((task) => task.id.startsWith(query));
  if (matches.length === 1) return { ok: true, task: matches[0] as BoardTask };
  if (matches.length === 0)
    return { ok: false, message: `there is no task ${JSON.stringify(query)} on the board` };
  const shown = matches
    .slice(0, 5)
    .map((task) => task.id)
    .join(', ');
  return {
    ok: false,
    message: `${JSON.stringify(query)} matches ${matches.length} tasks (${shown}${matches.length > 5 ? ', …' : ''}): give more of the id`,
  };
}

function taskLine(task: BoardTask, idWidth: number): string {
  return `  ${task.id.padEnd(idWidth)}  ${task.status.padEnd(7)}  ${[
    task.project_id ?? '',
    task.due === undefined ? '' : `due ${task.due}`,
    task.holder === undefined ? '' : `held by ${task.holder}`,
  ]
    .filter((part) => part !== '')
    .join(' · ')
    .padEnd(40)}  ${stripControl(task.title)}`;
}

const list: Command = {
  path: 'tasks list',
  summary: 'the tasks on your board (open ones unless --all)',
  help: [
    'Usage: mecha tasks list [--all] [--project ID] [--status STATUS] [--json]',
    '',
    'Lists the tasks on your board: open ones (inbox, next, waiting) unless --all.',
    '',
    'Options:',
    '  --all           closed tasks (done, dropped) too',
    '  --project ID    only the tasks of one project',
    `  --status S      only tasks with this status (${statuses})`,
    '  --json          the rows as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: {
    all: { type: 'boolean' },
    project: { type: 'string' },
    status: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals, context }) {
    if (positionals.length > 0)
      return usageError(context, this.path, `unexpected argument '${positionals[0]}'`);
    const statusText = stringOption(values, 'status');
    const status = statusText === undefined ? undefined : taskStatusSchema.safeParse(statusText);
    if (status !== undefined && !status.success) {
      return usageError(
        context,
        this.path,
        `--status takes ${statuses}, not ${JSON.stringify(statusText)}`,
      );
    }
    const project = stringOption(values, 'project');
    const read = await openCommandHome(context).board.read();
    const asJson = flag(values, 'json');
    if (read.state === 'unreadable') {
      if (asJson)
        context.stdout(
          `${JSON.stringify({ read: false, reason: read.reason, tasks: null }, null, 2)}\n`,
        );
      else context.stdout(`The board could not be read: ${read.reason}\n`);
      return exitCodes.ok;
    }
    const tasks = tasksOf(read.records).filter(
      (task) =>
        (status?.data === undefined
          ? flag(values, 'all') || !closed(task.status)
          : task.status === status.data) &&
        (project === undefined || task.project_id === project),
    );
    if (asJson) {
      context.stdout(
        `${JSON.stringify({ read: read.state === 'read', ...(read.state === 'partial' ? { skipped: read.skipped.length } : {}), tasks }, null, 2)}\n`,
      );
      return exitCodes.ok;
    }
    const style = styleFor({ isTTY: context.stdoutIsTTY, env: context.env });
    const counts = taskStatusSchema.options
      .map((name) => [name, tasks.filter((task) => task.status === name).length] as const)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${n} ${name}`);
    const lines = [
      style.bold(
        `${tasks.length} task${tasks.length === 1 ? '' : 's'}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}${read.state === 'partial' ? ' (partial: the board has damaged lines)' : ''}`,
      ),
    ];
    const width = Math.max(0, ...tasks.map((task) => task.id.length));
    for (const task of tasks) lines.push(taskLine(task, width));
    context.stdout(`${lines.join('\n')}\n`);
    return exitCodes.ok;
  },
};

const add: Command = {
  path: 'tasks add',
  summary: 'put a new task on the board',
  help: [
    'Usage: mecha tasks add TITLE… [--project ID] [--due DATE] [--status inbox|next|waiting] [--holder WHO]',
    '',
    'Puts a new task on your board (in inbox unless --status says otherwise) and prints its id.',
    '',
    'Options:',
    '  --project ID    the project it belongs to',
    '  --due DATE      its due date (2026-09-30) or time (2026-09-30T17:00:00Z)',
    '  --status S      inbox, next or waiting (closing is `mecha tasks set`)',
    '  --holder WHO    agent, owner or other',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: {
    project: { type: 'string' },
    due: { type: 'string' },
    status: { type: 'string' },
    holder: { type: 'string' },
  },
  async run({ values, positionals, context }) {
    if (positionals.length === 0) return usageError(context, this.path, 'give the task a title');
    const status = stringOption(values, 'status') ?? 'inbox';
    if (status !== 'inbox' && status !== 'next' && status !== 'waiting') {
      return usageError(
        context,
        this.path,
        `--status takes inbox, next or waiting, not ${JSON.stringify(status)}`,
      );
    }
    const holder = stringOption(values, 'holder');
    if (holder !== undefined && holder !== 'agent' && holder !== 'owner' && holder !== 'other') {
      return usageError(
        context,
        this.path,
        `--holder takes agent, owner or other, not ${JSON.stringify(holder)}`,
      );
    }
    const project = stringOption(values, 'project');
    if (project !== undefined && !idSchema.safeParse(project).success) {
      return usageError(
        context,
        this.path,
        `--project takes a project id, not ${JSON.stringify(project)}`,
      );
    }
    const due = stringOption(values, 'due');
    const home = openCommandHome(context);
    const board = await home.board.read();
    const taken = new Set(board.state === 'unreadable' ? [] : board.records.map((row) => row.id));
    let id = '';
    do id = `task-${randomBytes(4).toString('hex')}`;
    while (taken.has(id));
    const put = await home.board.put([
      {
        v: 1,
        kind: 'task',
        id,
        title: positionals.join(' '),
        status,
        ...(project === undefined ? {} : { project_id: project }),
        ...(due === undefined ? {} : { due }),
        ...(holder === undefined ? {} : { holder }),
      },
    ]);
    if (isLeft(put))
      return failure(context, this.path, `the task was not added: ${put.left.message}`);
    context.stdout(`Added ${id} (${status}).\n`);
    return exitCodes.ok;
  },
};

const set: Command = {
  path: 'tasks set',
  summary: 'move a task; closing it (done, dropped) appraises the work, once',
  help: [
    'Usage: mecha tasks set TASK --status STATUS [--session ID]… [--reason TEXT]',
    '',
    `Moves a task (its id or a unique prefix) to STATUS: ${statuses}.`,
    '',
    "Closing it (done or dropped) is the owner's act: the closure is written to",
    "closures/closures.jsonl before the board changes, with mecha's appraisal of the sessions",
    'that did the work, and the appraisal line is printed. A done closure whose reading names',
    'residue (or a run cut short) stages one follow-up task; dropped never does. Closing a',
    "project's last open task also prints the project's reading. Reopening a closed task records",
    'which closure it undoes. hooks/pre_task_close may refuse a closure; hooks/task_closed and',
    'hooks/task_reopened are told. A run registered with nobody present is refused.',
    '',
    'Options:',
    `  --status S      ${statuses}`,
    '  --session ID    a session that did the work (repeat for several); by default the',
    '                  sessions whose runs named this task as their goal',
    '  --reason TEXT   why you reopen it, in your words (kept on the record)',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: {
    status: { type: 'string' },
    session: { type: 'string', multiple: true },
    reason: { type: 'string' },
  },
  async run({ values, positionals, context }) {
    const path = this.path;
    const [query, extra] = positionals;
    if (query === undefined) return usageError(context, path, 'name the task to move');
    if (extra !== undefined) return usageError(context, path, `unexpected argument '${extra}'`);
    const statusText = stringOption(values, 'status');
    if (statusText === undefined)
      return usageError(context, path, `say where to move it: --status ${statuses}`);
    const parsedStatus = taskStatusSchema.safeParse(statusText);
    if (!parsedStatus.success) {
      return usageError(
        context,
        path,
        `unknown status ${JSON.stringify(statusText)}: use ${statuses}`,
      );
    }
    const to = parsedStatus.data;
    const sessionValues = values.session;
    const sessionIds = Array.isArray(sessionValues)
      ? [...new Set(sessionValues.filter((value): value is string => typeof value === 'string'))]
      : [];
    for (const sessionId of sessionIds) {
      if (!idSchema.safeParse(sessionId).success) {
        return usageError(
          context,
          path,
          `--session takes a session id, not ${JSON.stringify(sessionId)}`,
        );
      }
    }
    const reason = stringOption(values, 'reason');
    const home: MechaHome = openCommandHome(context);
    return setTask(context, home, {
      query,
      to,
      sessionIds,
      ...(reason === undefined ? {} : { reason }),
    });
  },
};

/** `tasks set` once its arguments are checked: find the task, check who is asking, move it. */
export async function setTask(
  context: CommandContext,
  home: MechaHome,
  request: {
    readonly query: string;
    readonly to: TaskStatus;
    /** The sessions that did the work; looked up from the runs' goals when absent or empty. */
    readonly sessionIds?: readonly string[];
    readonly reason?: string;
  },
): Promise<number> {
  const path = 'tasks set';
  const board = await home.board.read();
  if (board.state === 'unreadable')
    return failure(context, path, `the board could not be read: ${board.reason}`);
  const found = findTask(board.records, request.query);
  if (!found.ok) return failure(context, path, found.message);
  const task = found.task;
  const to = request.to;
  if (task.status === to)
    return failure(context, path, `${task.id} is already ${to}: nothing changed`);
  if (request.reason !== undefined && !(closed(task.status) && !closed(to))) {
    return usageError(context, path, '--reason is for reopening a closed task');
  }
  if (!closed(to) && !closed(task.status)) {
    if (request.sessionIds !== undefined && request.sessionIds.length > 0)
      return usageError(context, path, '--session is for closing a task');
    const put = await home.board.put([{ ...task, status: to }]);
    if (isLeft(put)) return failure(context, path, `${task.id} was not moved: ${put.left.message}`);
    context.stdout(`Moved ${task.id}: ${task.status} → ${to}.\n`);
    return exitCodes.ok;
  }
  if (!closed(to)) {
    if (request.sessionIds !== undefined && request.sessionIds.length > 0)
      return usageError(context, path, '--session is for closing a task');
    return reopenFlow(context, home, {
      taskId: task.id,
      to: to as 'inbox' | 'next' | 'waiting',
      ...(request.reason === undefined ? {} : { reason: request.reason }),
    });
  }
  if (closed(task.status)) {
    return failure(
      context,
      path,
      `${task.id} is already ${task.status}: reopen it before closing it again`,
    );
  }
  return closeFlow(context, home, {
    taskId: task.id,
    to: to as 'done' | 'dropped',
    ...(request.sessionIds === undefined || request.sessionIds.length === 0
      ? {}
      : { sessionIds: request.sessionIds }),
  });
}

/** `mecha tasks`: the board, and closure through the owner's path. */
export const tasksGroup: CommandGroup = {
  name: 'tasks',
  summary: 'your board: list, add, and move tasks (closing one appraises it)',
  commands: [list, add, set],
};
