import {
  closeSync,
  existsSync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';

/** One line of the work journal. */
export type JournalRecord =
  | {
      readonly kind: 'begin';
      readonly queue: number;
      readonly source: number;
      readonly processor: string;
      readonly model: string;
    }
  | {
      readonly kind: 'response';
      readonly queue: number;
      readonly processor: string;
      readonly phase: 1 | 2;
      readonly text: string;
      readonly bytes: number;
      readonly stopReason: string;
      /** Call 1's accepted quotes, recorded with call 2's response so recovery can re-check it. */
      readonly quotes?: readonly string[];
    }
  | {
      readonly kind: 'end';
      readonly queue: number;
      readonly outcome: 'complete' | 'refused' | 'interrupted';
      readonly reason?: string;
    };

/** What reading the journal found. */
export interface JournalRead {
  readonly records: readonly JournalRecord[];
  /** Bytes of a torn last line (a write cut short), dropped from the file; 0 when none. */
  readonly tornBytes: number;
  /** Lines before the end that are not records (counted, skipped). */
  readonly unreadableLines: number;
}

/**
 * The appraiser's append-only work journal (JSON lines, each written and fdatasync'ed before the
 * work it records goes on). A last line without its newline is a torn write: it is cut off on
 * open and reported, never read as a record.
 */
export class Journal {
  constructor(readonly path: string) {}

  /** Reads every record; cuts a torn tail off the file. */
  open(): JournalRead {
    if (!existsSync(this.path)) return { records: [], tornBytes: 0, unreadableLines: 0 };
    const bytes = readFileSync(this.path);
    const end = bytes.lastIndexOf(0x0a) + 1;
    const tornBytes = bytes.length - end;
    if (tornBytes > 0) {
      const fd = openSync(this.path, 'r+');
      try {
        ftruncateSync(fd, end);
        fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    const records: JournalRecord[] = [];
    let unreadableLines = 0;
    for (const line of bytes.subarray(0, end).toString('utf8').split('\n')) {
      if (line === '') continue;
      try {
        const record = JSON.parse(line) as JournalRecord;
        if (typeof record === 'object' && record !== null && typeof record.kind === 'string') {
          records.push(record);
        } else unreadableLines += 1;
      } catch {
        unreadableLines += 1;
      }
    }
    return { records, tornBytes, unreadableLines };
  }

  /** Appends one record and waits for it to reach the disk. */
  append(record: JournalRecord): void {
    const fd = openSync(this.path, 'a');
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}
