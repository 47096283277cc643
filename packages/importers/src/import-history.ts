import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type MechaHome, refuseMissingHome, withLock } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import {
  appendLedger,
  importsFolder,
  type LedgerEntry,
  ledgerFile,
  readLedger,
  readLedgerEntry,
} from './import-ledger.js';
import { type LineOutcome, mapClaudeCodeLine } from './map-claude-code.js';
import { mapCodexLine } from './map-codex.js';
import { readLines, type SourceLine } from './read-lines.js';
import {
  type ImportTool,
  newSessionState,
  SessionBuilder,
  type SessionState,
  type SignalCounts,
} from './session-builder.js';
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

const mappers: Record<ImportTool, (record: unknown, builder: SessionBuilder) => LineOutcome> = {
  'claude-code': mapClaudeCodeLine,
  codex: mapCodexLine,
};

/**
 * A session id in mecha's form (start to the second, eight hex digits of a hash of the log's own
 * id), so the same log read from another path (a backup, a moved folder, a second machine) is
 * the same session. A log that names no id falls back to its path.
 */
function sessionIdFor(tool: ImportTool, key: string, firstAt: string): string {
  const stamp = new Date(firstAt).toISOString().replace(/[-:]/g, '').slice(0, 15);
  const hex = createHash('sha256').update(`${tool}\n${key}`).digest('hex').slice(0, 8);
  return `${stamp}-${hex}`;
}

/** The log's own session id: Claude Code's `sessionId`, Codex's `session_meta` `payload.id`. */
function logIdOf(tool: ImportTool, record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const fields = record as Record<string, unknown>;
  const id =
    tool === 'claude-code'
      ? (fields.sessionId ?? fields.session_id)
      : fields.type === 'session_meta'
        ? (fields.payload as Record<string, unknown> | undefined)?.id
        : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

const codexLineTypes = ['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted'];
const claudeLineTypes = ['user', 'assistant', 'summary', 'system', 'file-history-snapshot'];

/**
 * Why a file whose first line is `text` (parsed as `record`, when it parses) is not a log of
 * `tool` at all, or undefined when it may be one (its lines are then checked one by one).
 */
function notThisToolsLog(tool: ImportTool, text: string, record: unknown): string | undefined {
  const title = tool === 'claude-code' ? 'Claude Code' : 'Codex';
  const trimmed = text.trim();
  if (record === undefined) {
    return trimmed === '{' || trimmed.startsWith('[')
      ? `not a ${title} log: not JSON Lines (its first line is "${trimmed.slice(0, 20)}"; a pretty-printed JSON file?)`
      : undefined;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return `not a ${title} log: its first line is JSON but not an object (one record a line is expected)`;
  }
  const fields = record as Record<string, unknown>;
  const codexShaped =
    typeof fields.type === 'string' && codexLineTypes.includes(fields.type) && 'payload' in fields;
  const claudeShaped =
    'sessionId' in fields ||
    (typeof fields.type === 'string' &&
      claudeLineTypes.includes(fields.type) &&
      !('payload' in fields));
  if (tool === 'claude-code' && codexShaped) {
    return 'not a Claude Code log: a Codex rollout (read it with `mecha import codex`)';
  }
  if (tool === 'codex' && claudeShaped) {
    return 'not a Codex rollout: a Claude Code log (read it with `mecha import claude-code`)';
  }
  if (tool === 'codex' && !('payload' in fields) && 'id' in fields) {
    return 'an old Codex rollout format (a bare first line with `id` and `instructions`, written before the `{timestamp, type, payload}` lines): not read';
  }
  return undefined;
}

function timestampOf(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const at = (record as { timestamp?: unknown }).timestamp;
  return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? at : undefined;
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

interface Totals {
  read: number;
  unchanged: number;
  skipped: number;
  created: number;
  continued: number;
  linesRead: number;
  mapped: number;
  ignored: number;
  damagedCount: number;
  events: number;
  signals: SignalCounts;
  damaged: DamagedLine[];
  skippedFiles: SkippedFile[];
  pending: string[];
  /** Sessions this pass created, and from which file (a second copy in the same pass). */
  createdFrom: Map<string, string>;
}

/** Keeps the report's list bounded on a badly damaged history; the count stays exact. */
const maxDamagedListed = 1000;

async function importFile(
  home: MechaHome,
  options: ImportOptions,
  file: string,
  previous: LedgerEntry | undefined,
  totals: Totals,
  now: () => Date,
  /** Another source file the ledger says went into this session, if any (read only when asked). */
  importedFrom: (sessionId: string, file: string) => string | undefined,
): Promise<E.Either<ImportFailure, void>> {
  const tool = options.tool;
  const size = sizeOf(file);
  if (size === null) {
    totals.skippedFiles.push({ file, reason: 'could not be read' });
    totals.skipped += 1;
    return E.right(undefined);
  }
  if (previous !== undefined && size === previous.offset) {
    totals.unchanged += 1;
    return E.right(undefined);
  }
  if (previous !== undefined && size < previous.offset) {
    totals.skippedFiles.push({
      file,
      reason: `it is shorter (${size} bytes) than what was imported (${previous.offset}): it was rewritten, and is not imported again`,
    });
    totals.skipped += 1;
    return E.right(undefined);
  }
  let state: SessionState | null = previous?.state ?? null;
  if (state !== null && previous !== undefined) {
    const transcript = sizeOf(join(home.path, home.sessions.file(state.sessionId)));
    if (transcript !== previous.transcript_bytes) {
      totals.skippedFiles.push({
        file,
        reason: `session ${state.sessionId}'s transcript is not as the import left it (${transcript ?? 'missing'} bytes, ${previous.transcript_bytes} recorded): not imported again, so nothing is doubled`,
      });
      totals.skipped += 1;
      return E.right(undefined);
    }
  }
  const continued = state !== null;
  let builder = state === null ? null : new SessionBuilder(state);
  let offset = previous?.offset ?? 0;
  let lineNumber = previous?.line ?? 0;
  let transcriptBytes = previous?.transcript_bytes ?? null;
  const batch = options.batchEvents ?? 1000;
  const mapper = mappers[tool];

  const flush = async (): Promise<E.Either<ImportFailure, void>> => {
    if (builder !== null) {
      const events = builder.drain();
      if (events.length > 0) {
        const sessionId = builder.state.sessionId;
        const written = await home.sessions.append(sessionId, events);
        if (E.isLeft(written)) {
          return E.left({
            kind: 'write_failed',
            message: `${file}: session ${sessionId} could not be written: ${written.left.message}`,
          });
        }
        totals.events += events.length;
        transcriptBytes = sizeOf(join(home.path, home.sessions.file(sessionId)));
      }
    }
    const marked = appendLedger(home.path, tool, [
      {
        v: 1,
        at: now().toISOString(),
        file,
        offset,
        line: lineNumber,
        session_id: builder?.state.sessionId ?? null,
        transcript_bytes: builder === null ? null : transcriptBytes,
        state: builder?.state ?? null,
      },
    ]);
    if (E.isLeft(marked)) {
      return E.left({
        kind: 'write_failed',
        message: `${file}: imported, but the import ledger could not be written (${marked.left}); a rerun would import it again`,
      });
    }
    return E.right(undefined);
  };

  const damage = (line: number, reason: string) => {
    totals.damagedCount += 1;
    if (totals.damaged.length < maxDamagedListed) totals.damaged.push({ file, line, reason });
  };

  let newLines = false;
  let firstLine = previous === undefined;
  let lines: Generator<SourceLine>;
  try {
    lines = readLines(file, { offset, linesBefore: lineNumber });
  } catch (error) {
    totals.skippedFiles.push({ file, reason: `could not be read: ${(error as Error).message}` });
    totals.skipped += 1;
    return E.right(undefined);
  }
  for (;;) {
    let next: IteratorResult<SourceLine>;
    try {
      next = lines.next();
    } catch (error) {
      // The file went away or failed mid-read: what was read is kept, the rest waits.
      totals.skippedFiles.push({ file, reason: `stopped reading: ${(error as Error).message}` });
      break;
    }
    if (next.done === true) break;
    const line = next.value;
    let record: unknown;
    let parsedOk = !line.tooLong;
    if (parsedOk) {
      try {
        record = JSON.parse(line.text);
      } catch {
        parsedOk = false;
      }
    }
    if (!parsedOk && line.unterminated && !line.tooLong) {
      // Still being written, most likely: the next pass reads it whole.
      totals.pending.push(file);
      break;
    }
    if (firstLine && line.text.trim() !== '' && !line.tooLong) {
      firstLine = false;
      const wrong = notThisToolsLog(tool, line.text, parsedOk ? record : undefined);
      if (wrong !== undefined) {
        totals.skippedFiles.push({ file, reason: wrong });
        totals.skipped += 1;
        lines.return(undefined);
        return E.right(undefined);
      }
    }
    newLines = true;
    totals.linesRead += 1;
    offset = line.end;
    lineNumber = line.line;
    if (line.text.trim() === '' && !line.tooLong) {
      totals.ignored += 1;
      continue;
    }
    if (line.tooLong) {
      damage(line.line, 'the line is too long to import');
      continue;
    }
    if (!parsedOk) {
      damage(line.line, 'not JSON');
      continue;
    }
    if (builder === null) {
      const at = timestampOf(record);
      if (at === undefined) {
        // Nothing before the first timestamped line can be placed; a bookkeeping line is fine.
        const probe = new SessionBuilder(newSessionState('probe', tool));
        const outcome = mapper(record, probe);
        if (outcome.kind === 'damaged') damage(line.line, outcome.reason);
        else totals.ignored += 1;
        continue;
      }
      const logId = logIdOf(tool, record);
      const sessionId = sessionIdFor(tool, logId ?? file, at);
      if (existsSync(join(home.path, home.sessions.file(sessionId)))) {
        const other = totals.createdFrom.get(sessionId) ?? importedFrom(sessionId, file);
        totals.skippedFiles.push({
          file,
          reason:
            other !== undefined && logId !== undefined
              ? `the same log (session ${logId}) was imported from ${other}, as session ${sessionId}: this copy is not imported, so nothing is counted twice`
              : `session ${sessionId} is already in this home, but ${ledgerFile(tool)} does not record importing it: not imported again`,
        });
        totals.skipped += 1;
        lines.return(undefined);
        return E.right(undefined);
      }
      state = newSessionState(sessionId, tool);
      builder = new SessionBuilder(state);
      totals.createdFrom.set(sessionId, file);
    }
    builder.locate(file, line.line);
    const outcome = mapper(record, builder);
    if (outcome.kind === 'damaged') damage(line.line, outcome.reason);
    else if (outcome.kind === 'mapped') totals.mapped += 1;
    else totals.ignored += 1;
    if (builder.events.length >= batch) {
      const flushed = await flush();
      if (E.isLeft(flushed)) {
        lines.return(undefined);
        return flushed;
      }
    }
  }
  lines.return(undefined);
  if (!newLines) {
    totals.unchanged += 1;
    return E.right(undefined);
  }
  totals.read += 1;
  builder?.flushEnd(options.turnEnded === true);
  const flushed = await flush();
  if (builder !== null && E.isRight(flushed)) {
    const counted = builder.signals;
    for (const key of Object.keys(counted) as (keyof SignalCounts)[]) {
      totals.signals[key] += counted[key];
    }
    // A session counts once it has a transcript: lines that mapped to nothing make none.
    if (continued) totals.continued += 1;
    else if (transcriptBytes !== null) totals.created += 1;
  }
  return flushed;
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
