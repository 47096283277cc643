import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { appendLinesDurably } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { z } from 'zod';
import { readLines } from './read-lines.js';
import type { ImportTool, SessionState } from './session-state.js';

/** The folder of the import ledgers, relative to the home. */
export const importsFolder = 'imports';

/** The ledger of one tool's imports: `imports/<tool>.jsonl` in the home. */
export function ledgerFile(tool: ImportTool): string {
  return `${importsFolder}/${tool}.jsonl`;
}

const stateSchema = z.looseObject({
  v: z.literal(1),
  sessionId: z.string(),
  tool: z.enum(['claude-code', 'codex']),
  turn: z.int(),
  runs: z.int(),
  seq: z.int(),
});

/**
 * One ledger line: how far a source file has been imported (the byte offset after the last
 * line consumed, and its line number), into which session, the transcript's size after that
 * write, and the state the next pass starts from. The newest line for a file wins.
 */
export const ledgerEntrySchema = z.object({
  v: z.literal(1),
  at: z.iso.datetime({ offset: true }),
  file: z.string().min(1),
  offset: z.int().nonnegative(),
  line: z.int().nonnegative(),
  /** Null while the file has held nothing to import (a summary-only file, say). */
  session_id: z.string().nullable(),
  transcript_bytes: z.int().nonnegative().nullable(),
  state: stateSchema.nullable(),
});
/** See {@link ledgerEntrySchema}. */
export interface LedgerEntry {
  readonly v: 1;
  readonly at: string;
  readonly file: string;
  readonly offset: number;
  readonly line: number;
  readonly session_id: string | null;
  readonly transcript_bytes: number | null;
  readonly state: SessionState | null;
}

/**
 * Reads a tool's ledger: the newest entry per source file. A torn last line (a crash mid-write)
 * is ignored; any other damaged line is an error, because importing past a ledger that cannot
 * be read would import twice.
 */
export function readLedger(
  homePath: string,
  tool: ImportTool,
): E.Either<string, Map<string, LedgerEntry>> {
  const path = join(homePath, ledgerFile(tool));
  const entries = new Map<string, LedgerEntry>();
  if (!existsSync(path)) return E.right(entries);
  try {
    for (const line of readLines(path)) {
      if (line.text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        if (line.unterminated) break;
        return E.left(`${ledgerFile(tool)}:${line.line} is not JSON`);
      }
      const entry = ledgerEntrySchema.safeParse(value);
      if (!entry.success) {
        if (line.unterminated) break;
        return E.left(`${ledgerFile(tool)}:${line.line} is not a ledger entry`);
      }
      entries.set(entry.data.file, entry.data as LedgerEntry);
    }
  } catch (error) {
    return E.left(`${ledgerFile(tool)} could not be read: ${(error as Error).message}`);
  }
  return E.right(entries);
}

const isWholeEntry = (line: string): boolean => {
  try {
    return ledgerEntrySchema.safeParse(JSON.parse(line)).success;
  } catch {
    return false;
  }
};

/**
 * The folder of a ledger's pointers, relative to the home: one small file per source file,
 * named by a hash of its path, holding where that file's newest ledger line starts. A pointer is
 * a shortcut, never the truth: the ledger is read from it to its end, and the newest line wins.
 */
export function ledgerPointers(tool: ImportTool): string {
  return `${importsFolder}/${tool}.pointers`;
}

const pointerSchema = z.object({
  file: z.string(),
  offset: z.int().nonnegative(),
});

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

function pointerPath(homePath: string, tool: ImportTool, file: string): string {
  return join(homePath, ledgerPointers(tool), `${digest(file).slice(0, 32)}.json`);
}

/**
 * The newest entry for `file` from its pointer: the ledger is read from the line the pointer
 * names to its end, and the last entry of the file there wins, so an entry written after the
 * pointer (a pointer a crash left stale) still wins. Undefined when there is no pointer, it does
 * not name the start of a line, or no entry of the file follows it (the ledger was edited): the
 * caller then reads the whole ledger.
 */
function entryFromPointer(
  homePath: string,
  tool: ImportTool,
  file: string,
): E.Either<string, LedgerEntry> | undefined {
  let pointer: z.infer<typeof pointerSchema>;
  try {
    const parsed = pointerSchema.safeParse(
      JSON.parse(readFileSync(pointerPath(homePath, tool, file), 'utf8')),
    );
    if (!parsed.success || parsed.data.file !== file) return undefined;
    pointer = parsed.data;
  } catch {
    return undefined;
  }
  const path = join(homePath, ledgerFile(tool));
  let tail: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (pointer.offset >= size) return undefined;
      // The pointed line must start a line: the byte before it is a newline.
      const from = pointer.offset === 0 ? 0 : pointer.offset - 1;
      tail = Buffer.allocUnsafe(size - from);
      let read = 0;
      while (read < tail.length) {
        const got = readSync(fd, tail, read, tail.length - read, from + read);
        if (got === 0) break;
        read += got;
      }
      tail = tail.subarray(0, read);
      if (pointer.offset > 0) {
        if (tail[0] !== 0x0a) return undefined;
        tail = tail.subarray(1);
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  let newest: LedgerEntry | undefined;
  let start = 0;
  let number = 0;
  while (start < tail.length) {
    const end = tail.indexOf(0x0a, start);
    const stop = end === -1 ? tail.length : end;
    const text = tail.subarray(start, stop).toString('utf8');
    number += 1;
    if (text.trim() !== '') {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        if (end === -1) break;
        return E.left(
          `${ledgerFile(tool)} (from byte ${pointer.offset}, line ${number}) is not JSON`,
        );
      }
      const entry = ledgerEntrySchema.safeParse(value);
      if (!entry.success) {
        if (end === -1) break;
        return E.left(
          `${ledgerFile(tool)} (from byte ${pointer.offset}, line ${number}) is not a ledger entry`,
        );
      }
      if (entry.data.file === file) newest = entry.data as LedgerEntry;
    }
    if (end === -1) break;
    start = end + 1;
  }
  return newest === undefined ? undefined : E.right(newest);
}

/**
 * The newest ledger entry of one source file, reading only what it needs: from the file's
 * pointer (see {@link ledgerPointers}) when it holds, else the whole ledger (the first import of
 * a file, or a ledger written before pointers). Every line read is checked as
 * {@link readLedger} checks it. Undefined when the ledger holds nothing for the file.
 */
export function readLedgerEntry(
  homePath: string,
  tool: ImportTool,
  file: string,
): E.Either<string, LedgerEntry | undefined> {
  const pointed = entryFromPointer(homePath, tool, file);
  if (pointed !== undefined) return pointed;
  const whole = readLedger(homePath, tool);
  return E.isLeft(whole) ? whole : E.right(whole.right.get(file));
}

/** Writes a pointer by a rename, so a reader sees the old one or the new one, never half. */
function writePointer(homePath: string, tool: ImportTool, file: string, offset: number) {
  const path = pointerPath(homePath, tool, file);
  mkdirSync(join(homePath, ledgerPointers(tool)), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ file, offset }));
  renameSync(temporary, path);
}

/**
 * Appends ledger entries durably through the stores' one append (a torn last line left by a
 * crash is completed when whole, else cut, so the next entry never glues onto it). The caller
 * holds the imports lock.
 */
export function appendLedger(
  homePath: string,
  tool: ImportTool,
  entries: readonly LedgerEntry[],
): E.Either<string, void> {
  const path = join(homePath, ledgerFile(tool));
  const lines = entries.map((entry) => Buffer.from(`${JSON.stringify(entry)}\n`));
  const payload = Buffer.concat(lines);
  const written = appendLinesDurably(path, payload, isWholeEntry);
  if (E.isLeft(written)) return E.left(written.left.message);
  // The pointers: best effort (a pointer that is missing or stale only sends the next reader to
  // the whole ledger, or to more of it). The lock is held, so the lines end the file.
  try {
    let at = statSync(path).size - payload.length;
    for (const [index, entry] of entries.entries()) {
      writePointer(homePath, tool, entry.file, at);
      at += (lines[index] as Buffer).length;
    }
  } catch {
    // Left for the next reader to find the long way.
  }
  return E.right(undefined);
}
