import type { BoardTask, TaskStatus } from '@mecha/appraisal-core';
import { isClosedStatus } from '../board-store.js';
import type { MechaHome } from '../home-context.js';
import { tasksOf } from '../owner/find-task.js';

/** Which tasks a listing shows: open ones unless `all` or a `status` says otherwise. */
export interface TaskFilter {
  /** Closed tasks (done, dropped) too. */
  readonly all?: boolean;
  /** Only tasks with this status (closed ones included when it is closed). */
  readonly status?: TaskStatus;
  readonly projectId?: string;
}

/** The board's tasks under a filter, or why the board could not be read. */
export type TaskList =
  | { readonly state: 'unreadable'; readonly reason: string }
  | {
      readonly state: 'read' | 'partial';
      /** Damaged board lines skipped (0 when read whole). */
      readonly skipped: number;
      readonly tasks: readonly BoardTask[];
    };

/** Lists the board's tasks in board order under `filter`. */
export async function listTasks(home: MechaHome, filter: TaskFilter = {}): Promise<TaskList> {
  const read = await home.board.read();
  if (read.state === 'unreadable') return read;
  const tasks = tasksOf(read.records).filter(
    (task) =>
      (filter.status === undefined
        ? filter.all === true || !isClosedStatus(task.status)
        : task.status === filter.status) &&
      (filter.projectId === undefined || task.project_id === filter.projectId),
  );
  return {
    state: read.state,
    skipped: read.state === 'partial' ? read.skipped.length : 0,
    tasks,
  };
}
