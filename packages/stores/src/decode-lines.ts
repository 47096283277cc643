import { isUtf8 } from 'node:buffer';
import type { SkippedLine, SourceRead } from '@mecha/appraisal-core';
import type { RecordValidator } from './record-validator.js';

/** Where decoded records and skipped lines go, and how lines are numbered. */
export interface LineSink<T> {
  readonly records: T[];
  readonly skipped: SkippedLine[];
}

/** What a read found: whole when no line was skipped, partial (naming each one) otherwise. */
export function readOf<T>(records: readonly T[], skipped: readonly SkippedLine[]): SourceRead<T> {
  return skipped.length === 0 ? { state: 'read', records } : { state: 'partial', records, skipped };
}

const newline = 0x0a;

/**
 * Decodes whole JSONL lines from `buffer[start, end)` into `sink`, numbering them from
 * `firstLine`. A line that is not UTF-8, not JSON or not a valid record is skipped with its
 * file and line number; blank lines are neither. `end` must fall just after a newline unless
 * this is the end of the file, where an unterminated last line is what a crashed append leaves
 * (it counts when it is a whole valid record). Returns the number of the next line.
 */
export function decodeLines<T>(
  buffer: Buffer,
  start: number,
  end: number,
  options: {
    readonly file: string;
    readonly firstLine: number;
    readonly validator: RecordValidator<T>;
    readonly sink: LineSink<T>;
  },
): number {
  const { file, validator, sink } = options;
  let line = options.firstLine;
  const take = (text: string, terminated: boolean): void => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (text.trim() !== '') {
        sink.skipped.push({
          file,
          line,
          reason: terminated ? 'not JSON' : 'torn final line: no newline and not JSON',
        });
      }
      return;
    }
    const record = validator.validate(value);
    if (record === undefined) {
      sink.skipped.push({
        file,
        line,
        reason: `${terminated ? '' : 'unterminated final line: '}invalid record: ${validator.explain(value)}`,
      });
    } else {
      sink.records.push(record);
    }
  };

  if (isUtf8(buffer.subarray(start, end))) {
    // One conversion and one split for the whole range: no per-line buffer work.
    const lines = buffer.toString('utf8', start, end).split('\n');
    const last = lines.length - 1;
    for (let index = 0; index < last; index += 1) {
      take(lines[index] as string, true);
      line += 1;
    }
    const tail = lines[last] as string;
    if (tail !== '') {
      take(tail, false);
      line += 1;
    }
    return line;
  }

  // Some line is not UTF-8: find it line by line and keep every other.
  let cursor = start;
  while (cursor < end) {
    const found = buffer.indexOf(newline, cursor);
    const terminated = found !== -1 && found < end;
    const stop = terminated ? found : end;
    const bytes = buffer.subarray(cursor, stop);
    if (isUtf8(bytes)) take(bytes.toString('utf8'), terminated);
    else {
      sink.skipped.push({
        file,
        line,
        reason: terminated ? 'not valid UTF-8' : 'torn final line: no newline and not valid UTF-8',
      });
    }
    line += 1;
    cursor = stop + 1;
  }
  return line;
}
