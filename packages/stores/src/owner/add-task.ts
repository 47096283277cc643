import type { BoardTask } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import type { MechaHome } from '../home-context.js';
import { newTaskId } from './new-task-id.js';
import { type OwnerActRefusal, ownerRefused } from './owner-refusal.js';

/** The statuses a new task may start in; closing one is a move of its own. */
export const newTaskStatuses = ['inbox', 'next', 'waiting'] as const;
/** See {@link newTaskStatuses}. */
export type NewTaskStatus = (typeof newTaskStatuses)[number];

/** Who holds a task. */
export const taskHolders = ['agent', 'owner', 'other'] as const;
/** See {@link taskHolders}. */
export type TaskHolder = (typeof taskHolders)[number];

/** A new task as an owner asks for it. */
export interface AddTaskRequest {
  readonly title: string;
  /** `inbox` unless given. */
  readonly status?: NewTaskStatus;
  readonly projectId?: string;
  /** A date (`2026-09-30`) or a time (`2026-09-30T17:00:00Z`). */
  readonly due?: string;
  readonly holder?: TaskHolder;
}

/** A task put on the board, render-ready. */
export interface AddedTask {
  readonly state: 'added';
  readonly task: BoardTask;
  /** `Added task-… (inbox).` */
  readonly line: string;
}

/**
 * Puts a new task on the board under a fresh id. A record the board's schema refuses (a due
 * date that is none, say) is refused as a value and nothing is written.
 */
export async function addTask(
  home: MechaHome,
  request: AddTaskRequest,
): Promise<E.Either<OwnerActRefusal<'not_written'>, AddedTask>> {
  const board = await home.board.read();
  const id = newTaskId(board.state === 'unreadable' ? [] : board.records);
  const status = request.status ?? 'inbox';
  const task = {
    v: 1 as const,
    kind: 'task' as const,
    id,
    title: request.title,
    status,
    ...(request.projectId === undefined ? {} : { project_id: request.projectId }),
    ...(request.due === undefined ? {} : { due: request.due }),
    ...(request.holder === undefined ? {} : { holder: request.holder }),
  };
  const put = await home.board.put([task]);
  if (E.isLeft(put)) {
    return ownerRefused('not_written', `the task was not added: ${put.left.message}`);
  }
  return E.right({ state: 'added', task, line: `Added ${id} (${status}).` });
}
