import type { BoardRecord, SourceRead, TaskStatus } from '@mecha/appraisal-core';
import { couldNotRead, type Reading, readValue } from './reading.js';

/** The run's own task as its board row says: status, due date and project. */
export interface OwnTask {
  readonly id: string;
  readonly status: TaskStatus;
  /** The due date (`2026-09-30`), from the row's date or the date part of its timestamp. */
  readonly due?: string;
  readonly projectId?: string;
  /** Open tasks under that project. */
  readonly openInProject?: number;
}

/**
 * The owner's board as counts and pointers only — no task's name and no one it waits on is
 * kept. `complete` is false when the board response was cut short, so every count reads
 * "at least".
 */
export interface BoardSummary {
  readonly complete: boolean;
  readonly open: { readonly inbox: number; readonly next: number; readonly waiting: number };
  /** Ids of open tasks due before today, soonest first. */
  readonly overdue: readonly string[];
  /** Ids of open tasks due today or in the six days after, soonest first. */
  readonly dueThisWeek: readonly string[];
  /** Open tasks held by the owner, by someone else, and by the agent. */
  readonly waitingOnOwner: number;
  readonly waitingOnOthers: number;
  readonly heldByAgent: number;
  /** The run's own task; `not_on_board` when it was asked for and not found. */
  readonly ownTask?: OwnTask | 'not_on_board';
}

const openStatuses = new Set<TaskStatus>(['inbox', 'next', 'waiting']);

function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, (day ?? 1) + days))
    .toISOString()
    .slice(0, 10);
}

/**
 * Summarises a board read for the brief. `today` is the owner's local date (`2026-09-25`); a
 * task due on a timestamp is placed on that timestamp's own calendar date. `ownTaskId` names the
 * run's task. A board that could not be read is a failed reading, never an empty board.
 */
export function summarizeBoard(
  board: SourceRead<BoardRecord>,
  options: { readonly today: string; readonly ownTaskId?: string },
): Reading<BoardSummary> {
  if (board.state === 'unreadable') return couldNotRead(board.reason);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(options.today)) {
    return couldNotRead(`today's date could not be read from ${JSON.stringify(options.today)}`);
  }
  const weekEnd = addDays(options.today, 7);
  const tasks = board.records.flatMap((record) => (record.kind === 'task' ? [record] : []));
  const open = tasks.filter((task) => openStatuses.has(task.status));
  const byDue = (a: { due: string; id: string }, b: { due: string; id: string }) =>
    a.due === b.due ? a.id.localeCompare(b.id) : a.due < b.due ? -1 : 1;
  const dated = open.flatMap((task) =>
    task.due === undefined ? [] : [{ id: task.id, due: task.due.slice(0, 10) }],
  );
  const own =
    options.ownTaskId === undefined
      ? undefined
      : tasks.find((task) => task.id === options.ownTaskId);
  let ownTask: OwnTask | 'not_on_board' | undefined;
  if (own !== undefined) {
    ownTask = {
      id: own.id,
      status: own.status,
      ...(own.due === undefined ? {} : { due: own.due.slice(0, 10) }),
      ...(own.project_id === undefined
        ? {}
        : {
            projectId: own.project_id,
            openInProject: open.filter((task) => task.project_id === own.project_id).length,
          }),
    };
  } else if (options.ownTaskId !== undefined) ownTask = 'not_on_board';
  return readValue({
    complete: board.state === 'read',
    open: {
      inbox: open.filter((task) => task.status === 'inbox').length,
      next: open.filter((task) => task.status === 'next').length,
      waiting: open.filter((task) => task.status === 'waiting').length,
    },
    overdue: dated
      .filter((task) => task.due < options.today)
      .sort(byDue)
      .map((task) => task.id),
    dueThisWeek: dated
      .filter((task) => task.due >= options.today && task.due < weekEnd)
      .sort(byDue)
      .map((task) => task.id),
    waitingOnOwner: open.filter((task) => task.holder === 'owner').length,
    waitingOnOthers: open.filter((task) => task.holder === 'other').length,
    heldByAgent: open.filter((task) => task.holder === 'agent').length,
    ...(ownTask === undefined ? {} : { ownTask }),
  });
}
