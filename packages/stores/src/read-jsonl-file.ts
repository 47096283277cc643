import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { SourceRead } from '@mecha/appraisal-core';
import { decodeLines, type LineSink, readOf } from './decode-lines.js';
import type { RecordValidator } from './record-validator.js';

/** Files up to this size are read in one piece; larger ones are streamed in blocks this size. */
export const readBlockBytes = 8 * 1024 * 1024;

/** Why a file could not be opened or read, from its error code. */
export function describeFileError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'EISDIR':
      return 'is a directory, not a file';
    case 'ENOTDIR':
      return 'a folder on its path is a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'does not exist';
    default:
      return typeof code === 'string'
        ? `${code}: ${(error as Error).message}`
        : `could not be read: ${String(error)}`;
  }
}

/** What reading one JSONL file gave: a `SourceRead`, or a missing file left to the caller. */
export type JsonlFileRead<T> = SourceRead<T> | { readonly state: 'missing' };

/** Reads up to `length` bytes at `position` into `buffer`, fewer only at the end of the file. */
export function readFully(fd: number, buffer: Buffer, length: number, position: number): number {
  let filled = 0;
  while (filled < length) {
    const got = readSync(fd, buffer, filled, length - filled, position + filled);
    if (got === 0) break;
    filled += got;
  }
  return filled;
}

/** Decodes a JSONL file already in memory into a `SourceRead`. */
export function decodeJsonl<T>(
  buffer: Buffer,
  length: number,
  file: string,
  validator: RecordValidator<T>,
): SourceRead<T> {
  const sink: LineSink<T> = { records: [], skipped: [] };
  decodeLines(buffer, 0, length, { file, firstLine: 1, validator, sink });
  return readOf(sink.records, sink.skipped);
}

/**
 * Reads a JSONL file whole (or in `blockBytes` blocks when larger), validating every line. Never
 * throws: a file that cannot be read is `unreadable` with the reason, a missing one is
 * `missing` (the caller decides whether that is a new store or a vanished one), and damaged
 * lines are skipped and listed. `file` names the file in skipped lines and reasons.
 */
export function readJsonlFile<T>(
  path: string,
  file: string,
  validator: RecordValidator<T>,
  blockBytes: number = readBlockBytes,
): JsonlFileRead<T> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { state: 'missing' };
    return { state: 'unreadable', reason: `${file} ${describeFileError(error)}` };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory())
      return { state: 'unreadable', reason: `${file} is a directory, not a file` };
    if (!stat.isFile()) return { state: 'unreadable', reason: `${file} is not a regular file` };
    if (stat.size <= blockBytes) {
      const buffer = Buffer.allocUnsafe(stat.size);
      const length = readFully(fd, buffer, stat.size, 0);
      return decodeJsonl(buffer, length, file, validator);
    }
    const sink: LineSink<T> = { records: [], skipped: [] };
    streamBlocks(fd, file, validator, sink, blockBytes);
    return readOf(sink.records, sink.skipped);
  } catch (error) {
    return { state: 'unreadable', reason: `${file} ${describeFileError(error)}` };
  } finally {
    closeSync(fd);
  }
}

/** Reads a large file block by block, carrying a line cut by a block boundary into the next. */
function streamBlocks<T>(
  fd: number,
  file: string,
  validator: RecordValidator<T>,
  sink: LineSink<T>,
  blockBytes: number,
): void {
  let buffer = Buffer.allocUnsafe(blockBytes);
  let carried = 0;
  let position = 0;
  let line = 1;
  for (;;) {
    if (carried === buffer.length) {
      // One line longer than the buffer: grow it rather than cut the line.
      const grown = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(grown, 0, 0, carried);
      buffer = grown;
    }
    const got = readFully(fd, buffer.subarray(carried), buffer.length - carried, position);
    position += got;
    const filled = carried + got;
    if (got === 0) {
      if (filled > 0) decodeLines(buffer, 0, filled, { file, firstLine: line, validator, sink });
      return;
    }
    const lastNewline = buffer.lastIndexOf(0x0a, filled - 1);
    if (lastNewline === -1) {
      carried = filled;
      continue;
    }
    line = decodeLines(buffer, 0, lastNewline + 1, { file, firstLine: line, validator, sink });
    carried = filled - (lastNewline + 1);
    buffer.copy(buffer, 0, lastNewline + 1, filled);
  }
}
