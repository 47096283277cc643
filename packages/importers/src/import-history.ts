import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type MechaHome, refuseMissingHome, withLock } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { importFile } from './import-file.js';
import {
  importsFolder,
  type LedgerEntry,
  ledgerFile,
  readLedger,
  readLedgerEntry,
} from './import-ledger.js';
import type { Totals } from './import-totals.js';
import type { ImportTool, SignalCounts } from './session-state.js';
import { surveySourceFiles } from './source-files.js';

/** A line of a source log that could not be imported: the file, its line number, and why. */
export interface DamagedLine {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

/** A source file left alone this time, and why (it shrank, or the home already holds it). */
export interface SkippedFile {
  readonly file: string;
  readonly reason: string;
}

/** What one import pass did. Counts are of this pass; a rerun over nothing new counts zeros. */
export interface ImportReport {
  readonly tool: ImportTool;
  readonly source: string;
  /** The ledger the pass kept, relative to the home. */
  readonly ledger: string;
  readonly files: {
    readonly seen: number;
    /** Files with new lines this pass. */
    readonly read: number;
    readonly unchanged: number;
    readonly skipped: number;
  };
  readonly sessions: { readonly created: number; readonly continued: number };
  readonly lines: {
    readonly read: number;
    readonly mapped: number;
    readonly ignored: number;
    readonly damaged: number;
  };
  /** Transcript events written. */
  readonly events: number;
  readonly signals: SignalCounts;
  readonly damaged: readonly DamagedLine[];
  readonly skippedFiles: readonly SkippedFile[];
  /** Files whose last line has no newline yet and does not parse: left for the next pass. */
  readonly pending: readonly string[];
}

/** Why an import could not run at all (nothing was written). */
export type ImportFailure =
  | { readonly kind: 'source_missing'; readonly message: string }
  | { readonly kind: 'source_unreadable'; readonly message: string }
  | { readonly kind: 'ledger_damaged'; readonly message: string }
  | { readonly kind: 'write_failed'; readonly message: string }
  /** The home does not exist (run `mecha init`, or open it with `create: true`): nothing was written. */
  | { readonly kind: 'no_home'; readonly message: string };

/** What to import and how to report progress. */
export interface ImportOptions {
  readonly tool: ImportTool;
  /** The tool's session folder (see `defaultSourceFolder`). */
  readonly source: string;
  /** Called after each file: files done, and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** The clock the ledger is stamped with. */
  readonly now?: () => Date;
  /** Events written per append (each append is one locked, fsynced write). */
  readonly batchEvents?: number;
  /**
   * Only these files (absolute paths), instead of every log under `source`: a hook importing the
   * one transcript it was told of.
   */
  readonly files?: readonly string[];
  /**
   * The tool said the turn is over (its Stop hook ran): an answer left pending at the end of the
   * pass ends its run now instead of waiting for the next line.
   */
  readonly turnEnded?: boolean;
}

/**
 * Imports a tool's session logs into a mecha home: each source file becomes one session,
 * marked with the tool as its surface, written through the home's validated, locked session
 * store. Files are read line by line from where the last pass stopped (the ledger,
 * `imports/<tool>.jsonl`), so a rerun imports only what is new, and memory stays flat. A
 * damaged line is reported with its file and line and the rest is imported.
 */
export async function importHistory(
  home: MechaHome,
  options: ImportOptions,
): Promise<E.Either<ImportFailure, ImportReport>> {
  const tool = options.tool;
  const source = resolve(options.source);
  const now = options.now ?? (() => new Date());
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(source);
  } catch {
    return E.left({ kind: 'source_missing', message: `there is no folder at ${source}` });
  }
  if (!stats.isDirectory()) {
    return E.left({ kind: 'source_missing', message: `${source} is not a folder` });
  }
  let files: readonly string[];
  let passedOver: readonly SkippedFile[] = [];
  try {
    if (options.files !== undefined) files = options.files.map((file) => resolve(file));
    else ({ files, passedOver } = surveySourceFiles(tool, source));
  } catch (error) {
    return E.left({
      kind: 'source_unreadable',
      message: `${source} could not be listed: ${(error as Error).message}`,
    });
  }
  const present = refuseMissingHome(home);
  if (E.isLeft(present)) return E.left({ kind: 'no_home', message: present.left.message });
  const locked = await withLock(join(home.path, importsFolder, '.lock'), async () => {
    // A pass over named files (a hook's one transcript) reads only those files' entries; a
    // pass over the whole folder reads the whole ledger.
    const damaged = (message: string) =>
      E.left<ImportFailure, ImportReport>({
        kind: 'ledger_damaged',
        message: `${message}; fix or remove that line (the import stops so that nothing is imported twice)`,
      });
    let ledger: Map<string, LedgerEntry> | undefined;
    const entries = new Map<string, LedgerEntry | undefined>();
    if (options.files === undefined) {
      const whole = readLedger(home.path, tool);
      if (E.isLeft(whole)) return damaged(whole.left);
      ledger = whole.right;
      for (const file of files) entries.set(file, ledger.get(file));
    } else {
      for (const file of files) {
        const entry = readLedgerEntry(home.path, tool, file);
        if (E.isLeft(entry)) return damaged(entry.left);
        entries.set(file, entry.right);
      }
    }
    const importedFrom = (sessionId: string, file: string): string | undefined => {
      if (ledger === undefined) {
        const whole = readLedger(home.path, tool);
        ledger = E.isRight(whole) ? whole.right : new Map();
      }
      return [...ledger.values()].find(
        (entry) => entry.session_id === sessionId && entry.file !== file,
      )?.file;
    };
    const totals: Totals = {
      read: 0,
      unchanged: 0,
      skipped: passedOver.length,
      created: 0,
      continued: 0,
      linesRead: 0,
      mapped: 0,
      ignored: 0,
      damagedCount: 0,
      events: 0,
      signals: { steers: 0, denials: 0, compactions: 0, ceilings: 0, errors: 0 },
      damaged: [],
      skippedFiles: [...passedOver],
      pending: [],
      createdFrom: new Map(),
    };
    for (const [index, file] of files.entries()) {
      const done = await importFile(
        home,
        options,
        file,
        entries.get(file),
        totals,
        now,
        importedFrom,
      );
      if (E.isLeft(done)) return done;
      options.onProgress?.(index + 1, files.length);
    }
    return E.right<ImportFailure, ImportReport>({
      tool,
      source,
      ledger: ledgerFile(tool),
      files: {
        seen: files.length,
        read: totals.read,
        unchanged: totals.unchanged,
        skipped: totals.skipped,
      },
      sessions: { created: totals.created, continued: totals.continued },
      lines: {
        read: totals.linesRead,
        mapped: totals.mapped,
        ignored: totals.ignored,
        damaged: totals.damagedCount,
      },
      events: totals.events,
      signals: totals.signals,
      damaged: totals.damaged,
      skippedFiles: totals.skippedFiles,
      pending: totals.pending,
    });
  });
  if (E.isLeft(locked)) {
    return E.left({ kind: 'write_failed', message: `the import lock: ${locked.left.message}` });
  }
  return locked.right;
}
