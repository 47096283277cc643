import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { appendLinesDurably } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { z } from 'zod';
import { readLines } from './read-lines.js';
import type { ImportTool, SessionState } from './session-builder.js';

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
  const written = appendLinesDurably(
    path,
    Buffer.from(entries.map((entry) => `${JSON.stringify(entry)}\n`).join('')),
    isWholeEntry,
  );
  return E.isLeft(written) ? E.left(written.left.message) : E.right(undefined);
}
