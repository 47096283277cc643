import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MechaHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import type { DamagedLine, ImportFailure, ImportOptions, SkippedFile } from './import-history.js';
import { appendLedger, type LedgerEntry, ledgerFile } from './import-ledger.js';
import { logIdOf, notThisToolsLog, sessionIdFor, timestampOf } from './log-identity.js';
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

// One file's import pass: from where the ledger left it to its end, into its session.

const mappers: Record<ImportTool, (record: unknown, builder: SessionBuilder) => LineOutcome> = {
  'claude-code': mapClaudeCodeLine,
  codex: mapCodexLine,
};

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/** What a pass over several files has counted so far; each file adds to it. */
export interface Totals {
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

/**
 * Imports one source file's new lines (from `previous`, its ledger entry) into its session, and
 * adds what it did to `totals`: a file that is not a log of the tool, a copy of a log already
 * imported, a rewritten file or a changed transcript is left alone and reported instead.
 */
export async function importFile(
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

  // A file left alone after some of its lines were read (a copy of a log already imported) adds
  // none of them to the pass's counts: the report counts the lines of the logs it imported.
  const countedBefore = {
    linesRead: totals.linesRead,
    ignored: totals.ignored,
    damagedCount: totals.damagedCount,
    damagedListed: totals.damaged.length,
  };
  const uncount = () => {
    totals.linesRead = countedBefore.linesRead;
    totals.ignored = countedBefore.ignored;
    totals.damagedCount = countedBefore.damagedCount;
    totals.damaged.length = countedBefore.damagedListed;
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
        uncount();
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
        uncount();
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
