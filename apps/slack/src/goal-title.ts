import type { BoardRecord, BoardTask, GoalRef } from '@mecha/appraisal-core';
import type { MechaHome } from '@mecha/stores';

/** What a Slack message needs from the board and the charter to name what it is about. */
export interface HomeTitles {
  readonly tasks: ReadonlyMap<string, BoardTask>;
  readonly projects: ReadonlyMap<string, string>;
  readonly charterLines: ReadonlyMap<string, string>;
}

/** The titles from board rows and charter lines (what a home holds, already read). */
export function homeTitles(
  board: readonly BoardRecord[],
  charter: readonly { readonly id: string; readonly text: string }[],
): HomeTitles {
  const tasks = new Map<string, BoardTask>();
  const projects = new Map<string, string>();
  for (const row of board) {
    if (row.kind === 'task') tasks.set(row.id, row);
    else projects.set(row.id, row.title);
  }
  return { tasks, projects, charterLines: new Map(charter.map((line) => [line.id, line.text])) };
}

/**
 * Reads the titles of a home: the board and the charter. A part that cannot be read gives no
 * titles, and a message then names its goal by id (`task task-1`) instead: never a guess.
 */
export async function readHomeTitles(home: MechaHome): Promise<HomeTitles> {
  const board = await home.board.read();
  const charter = home.readCharter();
  return homeTitles(
    board.state === 'unreadable' ? [] : board.records,
    charter.state === 'unreadable' ? [] : charter.charter,
  );
}

/** The title of what a goal points at (a task's, a project's, a charter line's text), if known. */
export function goalTitle(goal: GoalRef | undefined, titles: HomeTitles): string | undefined {
  if (goal?.id === undefined) return undefined;
  switch (goal.kind) {
    case 'task':
      return titles.tasks.get(goal.id)?.title;
    case 'project':
      return titles.projects.get(goal.id);
    case 'charter':
      return titles.charterLines.get(goal.id);
    default:
      return undefined;
  }
}

/** A task with its project's title, as a message shows it. */
export function taskViewOf(
  task: BoardTask,
  titles: HomeTitles,
): { readonly task: BoardTask; readonly projectTitle?: string } {
  const projectTitle =
    task.project_id === undefined ? undefined : titles.projects.get(task.project_id);
  return projectTitle === undefined ? { task } : { task, projectTitle };
}
