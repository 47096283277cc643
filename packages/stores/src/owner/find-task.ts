import type { BoardRecord, BoardTask } from '@mecha/appraisal-core';
import { findByPrefix } from './find-by-prefix.js';
import { type OwnerRefusal, ownerRefusal } from './owner-refusal.js';

/** The tasks among the board's rows (projects left out). */
export function tasksOf(rows: readonly BoardRecord[]): BoardTask[] {
  return rows.filter((row): row is BoardTask => row.kind === 'task');
}

/** The board's task with this id, or the only one it is a prefix of; else why not. */
export function findTask(
  rows: readonly BoardRecord[],
  query: string,
): { readonly state: 'found'; readonly task: BoardTask } | OwnerRefusal {
  const tasks = tasksOf(rows);
  const match = findByPrefix(
    tasks.map((task) => task.id),
    query,
  );
  if (match.state === 'found') {
    return { state: 'found', task: tasks.find((task) => task.id === match.id) as BoardTask };
  }
  if (match.state === 'none') {
    return ownerRefusal('not_found', `there is no task ${JSON.stringify(query)} on the board`);
  }
  const { candidates } = match;
  const shown = candidates.slice(0, 5).join(', ');
  return ownerRefusal(
    'ambiguous',
    `${JSON.stringify(query)} matches ${candidates.length} tasks (${shown}${candidates.length > 5 ? ', …' : ''}): give more of the id`,
  );
}
