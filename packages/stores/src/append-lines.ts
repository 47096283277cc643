import { isUtf8 } from 'node:buffer';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describeFileError } from './read-jsonl-file.js';
import type { WriteFailure } from './write-failure.js';

/**
 * The largest record a store accepts, as one line of JSON (4 MiB). Writers refuse larger ones,
 * so a torn tail longer than this can never be a whole record: it is cut without a look.
 */
export const maxRecordBytes = 4 * 1024 * 1024;
const backwardBlock = 64 * 1024;

/** Makes a directory entry durable: fsync on the directory that holds it. */
export function syncDirectory(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Finds where the last line starts: just after the last newline before `size`, or 0. It reads
 * back as far as the line goes, however long: a cut anywhere else would leave the line's head
 * to glue onto the next record.
 */
function lastLineStart(fd: number, size: number): number {
  const block = Buffer.allocUnsafe(backwardBlock);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - backwardBlock);
    const got = readSync(fd, block, 0, end - start, start);
    const found = block.subarray(0, got).lastIndexOf(0x0a);
    if (found !== -1) return start + found + 1;
    end = start;
  }
  return 0;
}

function writeAll(fd: number, data: Buffer): void {
  let written = 0;
  while (written < data.length) {
    written += writeSync(fd, data, written, data.length - written);
  }
}

/** What an append did to the file before writing: nothing, completed a line, or cut one. */
export type TailRepair = 'none' | 'completed' | 'cut';

/**
 * Appends whole lines to a file and makes them durable (fdatasync, and the directory too when
 * the file is new). Call it under the file's lock. A last line without its newline is an append
 * a crash cut short: when it is a whole valid record (`isWholeRecord`) its newline is added,
 * otherwise the bytes are cut, so a torn tail never glues onto the next record. Throws on a
 * file system error; the caller turns that into a value.
 */
export function appendLines(
  path: string,
  payload: Buffer,
  isWholeRecord: (line: string) => boolean,
): { readonly created: boolean; readonly repair: TailRepair } {
  const folder = dirname(path);
  let created = false;
  if (!existsSync(path)) {
    mkdirSync(folder, { recursive: true });
    created = true;
  }
  const fd = openSync(path, 'a+');
  let repair: TailRepair = 'none';
  try {
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.allocUnsafe(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) {
        const start = lastLineStart(fd, size);
        const length = size - start;
        let whole = false;
        if (length <= maxRecordBytes) {
          const tail = Buffer.allocUnsafe(length);
          readSync(fd, tail, 0, length, start);
          whole = isUtf8(tail) && isWholeRecord(tail.toString('utf8'));
        }
        if (whole) {
          writeAll(fd, Buffer.from('\n'));
          repair = 'completed';
        } else {
          ftruncateSync(fd, start);
          repair = 'cut';
        }
      }
    }
    writeAll(fd, payload);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (created) syncDirectory(folder);
  return { created, repair };
}

/**
 * {@link appendLines} for a file outside the home's stores (an importer's ledger, say), with the
 * failure as a value: the same durable append and the same torn-tail repair. The caller holds
 * the file's lock.
 */
export function appendLinesDurably(
  path: string,
  payload: Buffer,
  isWholeRecord: (line: string) => boolean,
): E.Either<WriteFailure, TailRepair> {
  try {
    return E.right(appendLines(path, payload, isWholeRecord).repair);
  } catch (error) {
    return E.left({ kind: 'io', path, message: `${path} ${describeFileError(error)}` });
  }
}
