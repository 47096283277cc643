import { join } from 'node:path';
import { MechaError } from '@mecha/errors';
import { homeLayout } from '@mecha/stores';
import { type RecordEntry, recordChecks } from '@mecha/stores/testing';
import { LineFile } from './line-file.js';
import { Schedule } from './schedule.js';

/** A JSONL store of the home (every record entry but the sessions folder). */
export type StoreKey = Exclude<RecordEntry, 'sessions'>;

/** What the stores hold once every line is written: bytes, lines per file and the files made. */
export interface StoresWritten {
  readonly bytes: number;
  readonly lines: Readonly<Record<string, number>>;
  readonly created: readonly string[];
}

/**
 * Writes the home's store lines in time order: a session schedules a line at the moment it
 * happens (a draft sent hours later, a reopen days later); lines before a time are written when
 * the sessions reach it. Every record is checked as its store reads it before it is written.
 */
export class HomeWriter {
  private readonly files = new Map<StoreKey, LineFile>();
  private readonly schedule = new Schedule<StoreKey>();

  constructor(readonly home: string) {}

  /** Schedules `record` for `store` at `at`; `then` runs once it is written. */
  add(at: number, store: StoreKey, record: Record<string, unknown>, then?: () => void): void {
    this.schedule.add(at, store, record, then);
  }

  /** Writes every line scheduled at or before `at`. */
  flushUntil(at: number): void {
    const schedule = this.schedule;
    for (let next = schedule.peek(); next !== undefined && next.at <= at; next = schedule.peek()) {
      schedule.pop();
      this.emit(next.store, next.record);
      next.then?.();
    }
  }

  /** Writes what is left and closes every store file. */
  close(): StoresWritten {
    this.flushUntil(Number.POSITIVE_INFINITY);
    let bytes = 0;
    const lines: Record<string, number> = {};
    for (const [store, file] of [...this.files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      file.close();
      bytes += file.bytes;
      lines[homeLayout[store]] = file.lines;
    }
    return { bytes, lines, created: [...this.files.keys()].map((store) => homeLayout[store]) };
  }

  private emit(store: StoreKey, record: Record<string, unknown>): void {
    const check = recordChecks[store];
    if (check.validate(record) === undefined) {
      throw new MechaError(
        `generateHome made an invalid ${store} record: ${check.explain(record)}`,
      );
    }
    let file = this.files.get(store);
    if (file === undefined) {
      file = new LineFile(join(this.home, homeLayout[store]));
      this.files.set(store, file);
    }
    file.push(JSON.stringify(record));
  }
}
