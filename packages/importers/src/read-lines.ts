import { closeSync, openSync, readSync } from 'node:fs';

/** One line of a source log, with where it ends so that a later pass can start after it. */
export interface SourceLine {
  /** 1-based line number in the file. */
  readonly line: number;
  /** The line's text without its newline; empty when the line was too long to hold. */
  readonly text: string;
  /** The byte offset just after the line's newline: where the next line starts. */
  readonly end: number;
  /** The line ran past `maxLineBytes`; its bytes were skipped, not held. */
  readonly tooLong: boolean;
  /** The file's last line, with no newline after it (it may still be being written). */
  readonly unterminated: boolean;
}

/** Where to start reading and how much one line may hold. */
export interface ReadLinesOptions {
  /** The byte offset to start at (just after a newline a previous pass consumed). */
  readonly offset?: number;
  /** The line number of the first line read, less one (the lines a previous pass consumed). */
  readonly linesBefore?: number;
  /** A line longer than this is reported as too long and skipped without being held. */
  readonly maxLineBytes?: number;
  /** The size of each read; 1 MiB by default. */
  readonly chunkBytes?: number;
}

/** The longest line held in memory: 64 MiB (a pasted image in a tool result can be large). */
export const defaultMaxLineBytes = 64 * 1024 * 1024;

const newline = 0x0a;

/**
 * Reads a file line by line from a byte offset, holding only the current chunk and the current
 * line: memory stays flat however large the file. A `\r` before a newline is dropped.
 */
export function* readLines(path: string, options: ReadLinesOptions = {}): Generator<SourceLine> {
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? 1024 * 1024);
  const fd = openSync(path, 'r');
  try {
    let position = options.offset ?? 0;
    let line = options.linesBefore ?? 0;
    let parts: Buffer[] = [];
    let held = 0;
    let tooLong = false;
    const take = (end: number, unterminated: boolean): SourceLine => {
      line += 1;
      let text = '';
      if (!tooLong) {
        const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, held);
        text = bytes.toString('utf8');
        if (text.endsWith('\r')) text = text.slice(0, -1);
      }
      const result = { line, text, end, tooLong, unterminated };
      parts = [];
      held = 0;
      tooLong = false;
      return result;
    };
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      let start = 0;
      while (start < read) {
        const at = chunk.indexOf(newline, start);
        const stop = at === -1 || at >= read ? read : at;
        const length = stop - start;
        if (!tooLong) {
          if (held + length > maxLineBytes) {
            tooLong = true;
            parts = [];
            held = 0;
          } else if (length > 0) {
            parts.push(Buffer.from(chunk.subarray(start, stop)));
            held += length;
          }
        }
        if (stop === read) break;
        yield take(position + stop + 1, false);
        start = stop + 1;
      }
      position += read;
    }
    if (held > 0 || tooLong) yield take(position, true);
  } finally {
    closeSync(fd);
  }
}
