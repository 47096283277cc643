import type { BoardRecord, BoardTask } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { findByPrefix } from './find-by-prefix.js';
import { type OwnerActRefusal, ownerRefused } from './owner-refusal.js';

/** The tasks among the board's rows (projects left out). */
export function tasksOf(rows: readonly BoardRecord[]): BoardTask[] {
  return rows.filter((row): row is BoardTask => row.kind === 'task');
}

/** The board's task with this id, or the only one it is a prefix of; else why not. */
export function findTask(
  rows: readonly BoardRecord[],
  query: string,
): E.Either<OwnerActRefusal<'not_found' | 'ambiguous'>, BoardTask> {
  const tasks = tasksOf(rows);
  const match = findByPrefix(
    tasks.map((task) => task.id),
    query,
  );
  if (match.state === 'found') {
    return E.right(tasks.find((task) => task.id === match.id) as BoardTask);
  }
  if (match.state === 'none') {
    return ownerRefused('not_found', `there is no task ${JSON.stringify(query)} on the board`);
  }
  const { candidates } = match;
  const shown = candidates.slice(0, 5).join(', ');
  return ownerRefused(
    'ambiguous',
    `${JSON.stringify(query)} matches ${candidates.length} tasks (${shown}${candidates.length > 5 ? ', …' : ''}): give more of the id`,
  );
}
