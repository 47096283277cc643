import {
  type BoardTask,
  idSchema,
  stripControl,
  stripControlDeep,
  taskStatusSchema,
} from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import {
  addTask,
  listTasks,
  type MechaHome,
  type MoveTaskRequest,
  moveTask,
  type NewTaskStatus,
  newTaskStatuses,
  type TaskHolder,
  taskHolders,
} from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import {
  type Command,
  type CommandGroup,
  exitCodes,
  failure,
  refusalJson,
  refused,
  refusedCode,
  usageError,
} from '../command.js';
import { openCommandHome } from '../home.js';
import { flag, stringOption } from '../parse-command.js';
import { renderClosed, renderReopened } from '../render/closure.js';
import { styleFor } from '../style.js';

const statuses = taskStatusSchema.options.join(', ');

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
  takesNoArguments: true,
  async run({ values, context }) {
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
    const read = await listTasks(openCommandHome(context), {
      all: flag(values, 'all'),
      ...(status?.data === undefined ? {} : { status: status.data }),
      ...(project === undefined ? {} : { projectId: project }),
    });
    const asJson = flag(values, 'json');
    if (read.state === 'unreadable') {
      // The board is this command's own subject: not reading it is a failure (exit 1).
      if (!asJson)
        return failure(context, this.path, `the board could not be read: ${read.reason}`);
      context.stdout(
        `${JSON.stringify({ read: false, reason: read.reason, tasks: null }, null, 2)}\n`,
      );
      return exitCodes.failure;
    }
    const { tasks } = read;
    if (asJson) {
      context.stdout(
        `${JSON.stringify({ read: read.state === 'read', ...(read.state === 'partial' ? { skipped: read.skipped } : {}), tasks }, null, 2)}\n`,
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
        `${tasks.length} task${tasks.length === 1 ? '' : 's'}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}${read.state === 'partial' ? " (partial: the board has damaged lines; 'mecha doctor' names them, 'mecha doctor --repair' compacts it)" : ''}`,
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
    'Usage: mecha tasks add TITLE… [--project ID] [--due DATE] [--status inbox|next|waiting] [--holder WHO] [--json]',
    '',
    'Puts a new task on your board (in inbox unless --status says otherwise) and prints its id.',
    '',
    'Options:',
    '  --project ID    the project it belongs to',
    '  --due DATE      its due date (2026-09-30) or time (2026-09-30T17:00:00Z)',
    '  --status S      inbox, next or waiting (closing is `mecha tasks set`)',
    '  --holder WHO    agent, owner or other',
    '  --json          the new task (and its id) as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: {
    project: { type: 'string' },
    due: { type: 'string' },
    status: { type: 'string' },
    holder: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals, context }) {
    if (positionals.length === 0) return usageError(context, this.path, 'give the task a title');
    const status = stringOption(values, 'status') ?? 'inbox';
    if (!(newTaskStatuses as readonly string[]).includes(status)) {
      return usageError(
        context,
        this.path,
        `--status takes inbox, next or waiting, not ${JSON.stringify(status)}`,
      );
    }
    const holder = stringOption(values, 'holder');
    if (holder !== undefined && !(taskHolders as readonly string[]).includes(holder)) {
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
    if (due !== undefined && !isDue(due)) {
      return usageError(
        context,
        this.path,
        `--due takes a date (2026-09-30) or a time (2026-09-30T17:00:00Z), not ${JSON.stringify(due)}`,
      );
    }
    const added = await addTask(openCommandHome(context), {
      title: positionals.join(' '),
      status: status as NewTaskStatus,
      ...(project === undefined ? {} : { projectId: project }),
      ...(due === undefined ? {} : { due }),
      ...(holder === undefined ? {} : { holder: holder as TaskHolder }),
    });
    if (isLeft(added)) return refused(context, this.path, added.left);
    const { task, line } = added.right;
    if (flag(values, 'json')) {
      context.stdout(`${JSON.stringify({ id: task.id, line, task }, null, 2)}\n`);
    } else context.stdout(`${line}\n`);
    return exitCodes.ok;
  },
};

const set: Command = {
  path: 'tasks set',
  summary: 'move a task; closing it (done, dropped) appraises the work, once',
  help: [
    'Usage: mecha tasks set TASK [--status STATUS] [--project ID] [--session ID]… [--reason TEXT] [--json]',
    '',
    `Moves a task (its id or a unique prefix) to STATUS: ${statuses}; with --project it is`,
    'filed under that project first, so `--project P --status done` re-files and closes in one',
    "command (the closure and the project's reading then read the new project). A closed task",
    'is re-filed only as it is reopened.',
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
    '  --project ID    the project to file it under',
    '  --session ID    a session that did the work (repeat for several); by default the',
    '                  sessions whose runs named this task as their goal',
    '  --reason TEXT   why you reopen it, in your words (kept on the record)',
    '  --json          the result as JSON: the closure record, its lines, the follow-up',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: {
    status: { type: 'string' },
    project: { type: 'string' },
    session: { type: 'string', multiple: true },
    reason: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals, context }) {
    const path = this.path;
    const [query, extra] = positionals;
    if (query === undefined) return usageError(context, path, 'name the task to move');
    if (extra !== undefined) return usageError(context, path, `unexpected argument '${extra}'`);
    const statusText = stringOption(values, 'status');
    const project = stringOption(values, 'project');
    if (statusText === undefined && project === undefined) {
      return usageError(
        context,
        path,
        `say where to move it: --status ${statuses}, or --project ID`,
      );
    }
    if (project !== undefined && !idSchema.safeParse(project).success) {
      return usageError(
        context,
        path,
        `--project takes a project id, not ${JSON.stringify(project)}`,
      );
    }
    const parsedStatus =
      statusText === undefined ? undefined : taskStatusSchema.safeParse(statusText);
    if (parsedStatus !== undefined && !parsedStatus.success) {
      return usageError(
        context,
        path,
        `unknown status ${JSON.stringify(statusText)}: use ${statuses}`,
      );
    }
    const to = parsedStatus?.data;
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
    return setTask(
      context,
      home,
      {
        query,
        sessionIds,
        ...(to === undefined ? {} : { to }),
        ...(project === undefined ? {} : { projectId: project }),
        ...(reason === undefined ? {} : { reason }),
      },
      flag(values, 'json'),
    );
  },
};

/** `tasks set` once its arguments are checked: one call to stores' `moveTask`, then render it. */
export async function setTask(
  context: CommandContext,
  home: MechaHome,
  request: Omit<MoveTaskRequest, 'surface' | 'env'>,
  asJson = false,
): Promise<number> {
  const path = 'tasks set';
  const moved = await moveTask(home, { ...request, surface: 'cli', env: context.env });
  if (asJson) {
    // The whole result: the closure record, its lines, the follow-up and the project reading.
    const shown = isLeft(moved) ? refusalJson(moved.left) : moved.right;
    context.stdout(`${JSON.stringify(stripControlDeep(shown), null, 2)}\n`);
    return isLeft(moved) ? refusedCode(moved.left) : exitCodes.ok;
  }
  if (isLeft(moved)) return refused(context, path, moved.left);
  const done = moved.right;
  if (done.refiled !== undefined) context.stdout(`${done.refiled.line}\n`);
  switch (done.state) {
    case 'moved':
    case 'refiled':
      context.stdout(`${done.line}\n`);
      return exitCodes.ok;
    case 'closed':
      return renderClosed(context, done);
    case 'reopened':
      return renderReopened(context, done);
  }
}

/** `mecha tasks`: the board, and closure through the owner's path. */
export const tasksGroup: CommandGroup = {
  name: 'tasks',
  summary: 'your board: list, add, and move tasks (closing one appraises it)',
  commands: [list, add, set],
};

/** A due date a person can mean: a real calendar date, or a timestamp with its offset. */
function isDue(text: string): boolean {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day !== null) {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
  }
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) &&
    !Number.isNaN(Date.parse(text))
  );
}
