import { join } from 'node:path';
import type { BoardRecord, SourceRead, TaskStatus } from '@mecha/appraisal-core';
import { boardRecordSchema } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import type { z } from 'zod';
import { homeLayout, lockFileOf } from './home-layout.js';
import { writeFileAtomically } from './home-manifest.js';
import {
  appendHeld,
  type HomeContext,
  parseRecords,
  type ReadableStore,
  readStore,
  renderRecords,
  underLock,
  wholeRecordTest,
} from './jsonl-store.js';
import { describeFileError } from './read-jsonl-file.js';
import { boardReader } from './store-schemas.js';
import type { WriteFailure } from './write-failure.js';

/** A board row as a writer passes it. */
export type BoardRecordInput = z.input<typeof boardRecordSchema>;

/**
 * The owner's board, stored as an append log of whole rows: each line is the full state of one
 * task or project, and the board is the last line of each (kind, id), in order of first
 * appearance. `put` refuses to move a task into or out of `done`/`dropped`: only `closeTask` and
 * `reopenTask`, which write the closure record first, do that.
 */
export interface BoardStore extends ReadableStore<BoardRecord> {
  /** Every row ever written, in order (the raw log). */
  history(): Promise<SourceRead<BoardRecord>>;
  /** Adds or updates rows; a closing or reopening move is refused. */
  put(rows: readonly BoardRecordInput[]): Promise<E.Either<WriteFailure, void>>;
  /**
   * Rewrites the log as one line per row, atomically. A log with damaged lines is compacted only
   * when `discardDamaged` is set, since their content is lost for good.
   */
  compact(options?: {
    readonly discardDamaged?: boolean;
  }): Promise<E.Either<WriteFailure, { readonly linesBefore: number; readonly rows: number }>>;
}

const terminal = new Set<TaskStatus>(['done', 'dropped']);

/** Whether a status closes a task: `done` or `dropped`. */
export function isClosedStatus(status: TaskStatus): boolean {
  return terminal.has(status);
}

/** Folds the board log into the current rows: the last line of each (kind, id). */
export function foldBoard(log: readonly BoardRecord[]): BoardRecord[] {
  const rows = new Map<string, BoardRecord>();
  for (const row of log) {
    const key = `${row.kind}:${row.id}`;
    // Re-setting keeps the key's first position: the board keeps the order rows appeared in.
    rows.set(key, row);
  }
  return [...rows.values()];
}

function folded(read: SourceRead<BoardRecord>): SourceRead<BoardRecord> {
  return read.state === 'unreadable' ? read : { ...read, records: foldBoard(read.records) };
}

/** The board's file, lock and append target for rows already rendered. */
export const boardFile = homeLayout.board;
const boardLock = lockFileOf(boardFile);
const isWholeBoardRow = wholeRecordTest(boardReader);

/** Reads the board log (for callers that hold the board lock). */
export function readBoardLog(context: HomeContext): SourceRead<BoardRecord> {
  return readStore(context, boardFile, boardReader);
}

/** The current board, refusing anything short of a whole read: a move needs every row. */
export function wholeBoard(
  context: HomeContext,
): E.Either<WriteFailure, { readonly rows: BoardRecord[]; readonly lines: number }> {
  const log = readBoardLog(context);
  if (log.state === 'unreadable') {
    return E.left({ kind: 'refused', message: `the board could not be read: ${log.reason}` });
  }
  if (log.state === 'partial') {
    const where = log.skipped.map((line) => `${line.file}:${line.line}`).join(', ');
    return E.left({
      kind: 'refused',
      message: `the board has damaged lines (${where}); a task's latest row may be among them. Compact it with discardDamaged once you have looked`,
    });
  }
  return E.right({ rows: foldBoard(log.records), lines: log.records.length });
}

/** Appends rendered board rows; the caller holds the board lock. */
export function appendBoardRows(
  context: HomeContext,
  rows: readonly BoardRecordInput[],
): Promise<E.Either<WriteFailure, void>> | E.Either<WriteFailure, void> {
  const rendered = renderRecords(boardRecordSchema, rows);
  if (E.isLeft(rendered)) return rendered;
  return appendHeld(context, {
    file: boardFile,
    lockFile: boardLock,
    manifestEntry: boardFile,
    payload: rendered.right,
    isWholeRecord: isWholeBoardRow,
  });
}

/** Runs `work` under the board's lock. */
export function underBoardLock<T>(
  context: HomeContext,
  work: () => Promise<E.Either<WriteFailure, T>> | E.Either<WriteFailure, T>,
): Promise<E.Either<WriteFailure, T>> {
  return underLock(context, boardLock, work);
}

/** Builds the board store of a home. */
export function boardStore(context: HomeContext): BoardStore {
  return {
    file: boardFile,
    read: async () => folded(readBoardLog(context)),
    history: async () => readBoardLog(context),
    put: async (rows) => {
      if (rows.length === 0) return E.right(undefined);
      const checked = parseRecords(boardRecordSchema, rows);
      if (E.isLeft(checked)) return checked;
      const parsed = checked.right;
      return underBoardLock(context, () => {
        const board = wholeBoard(context);
        if (E.isLeft(board)) return board;
        const status = new Map<string, TaskStatus>();
        for (const row of board.right.rows) if (row.kind === 'task') status.set(row.id, row.status);
        for (const row of parsed) {
          if (row.kind !== 'task') continue;
          const before = status.get(row.id);
          const closing = isClosedStatus(row.status) && before !== row.status;
          const reopening = before !== undefined && isClosedStatus(before) && before !== row.status;
          if (closing || reopening) {
            return E.left({
              kind: 'refused',
              message: `task ${row.id}: moving a task ${closing ? `into ${row.status}` : `out of ${before}`} is the owner's act; use closeTask or reopenTask, which record it first`,
            });
          }
          status.set(row.id, row.status);
        }
        return appendBoardRows(context, parsed);
      });
    },
    compact: async (options = {}) =>
      underBoardLock(context, () => {
        const log = readBoardLog(context);
        if (log.state === 'unreadable') {
          return E.left({ kind: 'refused', message: `the board could not be read: ${log.reason}` });
        }
        if (log.state === 'partial' && options.discardDamaged !== true) {
          return E.left({
            kind: 'refused',
            message: `the board has ${log.skipped.length} damaged line(s); compacting would discard them: run 'mecha doctor --repair' (it keeps the original beside the board), or pass discardDamaged from code`,
          });
        }
        const rows = foldBoard(log.records);
        const path = join(context.path, boardFile);
        const text =
          rows.length === 0 ? '' : `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
        try {
          writeFileAtomically(path, join(context.path, 'board'), text);
        } catch (error) {
          return E.left({ kind: 'io', path, message: `${boardFile} ${describeFileError(error)}` });
        }
        return E.right({ linesBefore: log.records.length, rows: rows.length });
      }),
  };
}
