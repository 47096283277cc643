import type { BoardTask, ClosureRecord, TaskStatus } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { appendBoardRows, isClosedStatus, underBoardLock, wholeBoard } from './board-store.js';
import { contextOf, type MechaHome } from './home-context.js';
import { homeLayout, lockFileOf } from './home-layout.js';
import {
  appendHeld,
  type HomeContext,
  readStore,
  renderRecords,
  underLock,
  wholeRecordTest,
} from './jsonl-store.js';
import { type ClosureRecordInput, closuresReader, closureWriter } from './store-schemas.js';
import type { WriteFailure } from './write-failure.js';

/** Who moved the task: the owner, or the agent running the owner's approved command. */
export type ClosureActor = 'owner' | 'agent_with_approval';

/** What every closure or reopen states: the task, who, on which surface, and whether a person was present. */
interface OwnerMove {
  readonly taskId: string;
  readonly who: ClosureActor;
  /** The surface the move was made on (`cli`, `web`, `slack`, `tui`, …). */
  readonly surface: string;
  /**
   * Whether a person is in the run that asks, as the harness registered it (never what a
   * command says about itself). A move with nobody present is refused.
   */
  readonly personPresent: boolean;
}

/** Closing a task: into `done` or `dropped`, naming the sessions that did its work. */
export interface CloseTaskRequest extends OwnerMove {
  readonly to: 'done' | 'dropped';
  readonly sessionIds: readonly string[];
  /** mecha's appraisal line, kept beside the move so other surfaces can show it. */
  readonly appraisalLine?: string;
}

/** Reopening a closed task into an open status, with the owner's reason if they gave one. */
export interface ReopenTaskRequest extends OwnerMove {
  readonly to: 'inbox' | 'next' | 'waiting';
  readonly reason?: string;
}

const closuresFile = homeLayout.closures;
const isWholeClosure = wholeRecordTest(closuresReader);

function refused(message: string): E.Either<WriteFailure, never> {
  return E.left({ kind: 'refused', message });
}

function appendClosure(
  context: HomeContext,
  record: ClosureRecordInput,
): Promise<E.Either<WriteFailure, void>> {
  const rendered = renderRecords(closureWriter, [record]);
  if (E.isLeft(rendered)) return Promise.resolve(rendered);
  return underLock(context, lockFileOf(closuresFile), () =>
    appendHeld(context, {
      file: closuresFile,
      lockFile: lockFileOf(closuresFile),
      manifestEntry: closuresFile,
      payload: rendered.right,
      isWholeRecord: isWholeClosure,
    }),
  );
}

/** What every closure and reopen records: the move, who made it and from where, and when. */
function closureFields(
  context: HomeContext,
  task: BoardTask,
  request: OwnerMove & { readonly to: TaskStatus },
  sessionIds: readonly string[],
): ClosureRecordInput {
  return {
    v: 2,
    closure_id: context.newId('close'),
    at: context.clock().toISOString(),
    task_id: task.id,
    from: task.status,
    to: request.to,
    surface: request.surface,
    session_ids: [...sessionIds],
    who: request.who,
    person_present: true,
  };
}

/**
 * The one path by which a task changes into or out of a closed status. Under the board's lock:
 * checks the move, writes the closure record (under the closures lock, fsynced), and only then
 * the board. When the closure cannot be written the board does not change. When the board write
 * fails after it, the closure stands and the error says so; calling again applies the board
 * without a second closure, because the latest closure of the task already names this move.
 */
async function move(
  home: MechaHome,
  request: OwnerMove & { readonly to: TaskStatus },
  build: (
    task: BoardTask,
    closures: readonly ClosureRecord[],
    closuresRead: 'read' | 'partial' | 'unreadable',
  ) => E.Either<WriteFailure, ClosureRecordInput>,
): Promise<E.Either<WriteFailure, ClosureRecord>> {
  const context = contextOf(home);
  if (!request.personPresent) {
    return refused(
      `nobody is present in this run: moving task ${request.taskId} to ${request.to} is a person's act (mecha tasks set)`,
    );
  }
  return underBoardLock(context, async () => {
    const board = wholeBoard(context);
    if (E.isLeft(board)) return board;
    const task = board.right.rows.find(
      (row): row is BoardTask => row.kind === 'task' && row.id === request.taskId,
    );
    if (task === undefined) return refused(`there is no task ${request.taskId} on the board`);
    const closuresRead = readStore(context, closuresFile, closuresReader);
    const closures = closuresRead.state === 'unreadable' ? [] : closuresRead.records;
    const latest = closures.findLast((record) => record.task_id === task.id);

    let closure: ClosureRecord;
    if (latest !== undefined && latest.from === task.status && latest.to === request.to) {
      // A closure recorded before, whose board write did not happen: apply it, add nothing.
      closure = latest;
    } else {
      const built = build(task, closures, closuresRead.state);
      if (E.isLeft(built)) return built;
      const written = await appendClosure(context, built.right);
      if (E.isLeft(written)) return written;
      closure = closureWriter.parse(built.right);
    }
    const applied = await appendBoardRows(context, [{ ...task, status: request.to }]);
    if (E.isLeft(applied)) {
      return E.left({
        ...applied.left,
        message: `closure ${closure.closure_id} is recorded but the board was not updated (${applied.left.message}); call again to apply it`,
      });
    }
    return E.right(closure);
  });
}

/**
 * Closes a board task as `done` or `dropped`: the owner's act, never a model's. Writes the
 * closure record to `closures/closures.jsonl` first, then the board; if the record cannot be
 * written the task is not closed. Refused when nobody is present, when the task is already
 * closed (a tap on a task since closed elsewhere changes nothing), or when the board cannot be
 * read whole.
 */
export function closeTask(
  home: MechaHome,
  request: CloseTaskRequest,
): Promise<E.Either<WriteFailure, ClosureRecord>> {
  const context = contextOf(home);
  return move(home, request, (task) => {
    if (task.status === request.to) {
      return refused(`task ${task.id} is already ${task.status}: nothing changed`);
    }
    if (isClosedStatus(task.status)) {
      return refused(
        `task ${task.id} is already ${task.status}: reopen it before closing it again`,
      );
    }
    return E.right({
      ...closureFields(context, task, request, request.sessionIds),
      ...(request.appraisalLine === undefined ? {} : { appraisal_line: request.appraisalLine }),
    });
  });
}

/**
 * Reopens a closed task into an open status, recording which closure it undoes (a reopen after
 * `done` signs against the sessions that closure named). Refused when the closure record cannot
 * be read well enough to find the closure it undoes.
 */
export function reopenTask(
  home: MechaHome,
  request: ReopenTaskRequest,
): Promise<E.Either<WriteFailure, ClosureRecord>> {
  const context = contextOf(home);
  return move(home, request, (task, closures, closuresRead) => {
    if (!isClosedStatus(task.status)) {
      return refused(`task ${task.id} is ${task.status}, not closed: there is nothing to reopen`);
    }
    if (closuresRead === 'unreadable') {
      return refused(
        `the closure record could not be read, so the closure this reopen undoes is unknown`,
      );
    }
    const undone = closures.findLast(
      (record) => record.task_id === task.id && record.to === task.status,
    );
    if (undone === undefined && closuresRead === 'partial') {
      return refused(
        `the closure record has damaged lines and none of the intact ones closed task ${task.id}`,
      );
    }
    return E.right({
      ...closureFields(context, task, request, undone?.session_ids ?? []),
      ...(undone === undefined ? {} : { reopens: undone.closure_id }),
      ...(request.reason === undefined ? {} : { reason: request.reason }),
    });
  });
}
