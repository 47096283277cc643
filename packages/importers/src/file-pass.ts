import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { MechaHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import type { ImportFailure, ImportOptions } from './import-history.js';
import { appendLedger, ledgerFile } from './import-ledger.js';
import { countDamage, markLineCounts, skipFile, type Totals } from './import-totals.js';
import { logIdOf, notThisToolsLog, sessionIdFor, timestampOf } from './log-identity.js';
import { type LineOutcome, mapClaudeCodeLine } from './map-claude-code.js';
import { mapCodexLine } from './map-codex.js';
import type { SourceLine } from './read-lines.js';
import { type ResumePoint, sizeOf } from './resume-point.js';
import { SessionBuilder } from './session-builder.js';
import { type ImportTool, newSessionState, type SignalCounts } from './session-state.js';

const mappers: Record<ImportTool, (record: unknown, builder: SessionBuilder) => LineOutcome> = {
  'claude-code': mapClaudeCodeLine,
  codex: mapCodexLine,
};

/** A source line read as JSON, or undefined when it is too long or not JSON. */
function parseLine(line: SourceLine): { readonly record: unknown } | undefined {
  if (line.tooLong) return undefined;
  try {
    return { record: JSON.parse(line.text) };
  } catch {
    return undefined;
  }
}

/** Another source file the ledger says went into a session, if any (read only when asked). */
export type ImportedFrom = (sessionId: string, file: string) => string | undefined;

/**
 * One file's import pass, from where its ledger entry left it: each line mapped into the
 * session's builder, the events written to the session in batches, and the ledger marked after
 * each write so that a pass cut short resumes where it stopped.
 */
export class FilePass {
  private builder: SessionBuilder | null;
  private offset: number;
  private lineNumber: number;
  private transcriptBytes: number | null;
  private newLines = false;
  private readonly continued: boolean;
  private readonly tool: ImportTool;
  private readonly mapper: (record: unknown, builder: SessionBuilder) => LineOutcome;
  private readonly batch: number;
  /** Takes back the lines counted by this pass (when the file is left alone after all). */
  private readonly uncount: () => void;

  constructor(
    private readonly home: MechaHome,
    private readonly options: ImportOptions,
    private readonly file: string,
    private readonly totals: Totals,
    private readonly now: () => Date,
    resume: ResumePoint,
  ) {
    this.builder = resume.state === null ? null : new SessionBuilder(resume.state);
    this.continued = resume.state !== null;
    this.offset = resume.offset;
    this.lineNumber = resume.line;
    this.transcriptBytes = resume.transcriptBytes;
    this.tool = options.tool;
    this.mapper = mappers[options.tool];
    this.batch = options.batchEvents ?? 1000;
    this.uncount = markLineCounts(totals);
  }

  /**
   * Reads `lines` to their end (or to a line still being written, or a read failure); `isNew`
   * when the file was never imported, so its first line says whether it is the tool's log.
   * Answers `left alone` when it turned out not to be the tool's log or a copy of one imported.
   */
  async readAll(
    lines: Generator<SourceLine>,
    isNew: boolean,
    importedFrom: ImportedFrom,
  ): Promise<E.Either<ImportFailure, 'read' | 'left alone'>> {
    let firstLine = isNew;
    for (;;) {
      let next: IteratorResult<SourceLine>;
      try {
        next = lines.next();
      } catch (error) {
        // The file went away or failed mid-read: what was read is kept, the rest waits.
        this.totals.skippedFiles.push({
          file: this.file,
          reason: `stopped reading: ${(error as Error).message}`,
        });
        break;
      }
      if (next.done === true) break;
      const line = next.value;
      const parsed = parseLine(line);
      if (parsed === undefined && line.unterminated && !line.tooLong) {
        // Still being written, most likely: the next pass reads it whole.
        this.totals.pending.push(this.file);
        break;
      }
      if (firstLine && line.text.trim() !== '' && !line.tooLong) {
        firstLine = false;
        const wrong = notThisToolsLog(this.tool, line.text, parsed?.record);
        if (wrong !== undefined) return this.leaveAlone(wrong);
      }
      const taken = this.take(line, parsed, importedFrom);
      if (taken === 'left alone') return E.right(taken);
      if (taken === 'mapped' && (this.builder?.events.length ?? 0) >= this.batch) {
        const flushed = await this.checkpoint();
        if (E.isLeft(flushed)) return flushed;
      }
    }
    return E.right('read');
  }

  /**
   * Ends the pass: the run end its last step left pending is settled (a tentative one only when
   * the tool said the turn ended), the rest written, and the session and its signals counted.
   */
  async finish(): Promise<E.Either<ImportFailure, void>> {
    const totals = this.totals;
    if (!this.newLines) {
      totals.unchanged += 1;
      return E.right(undefined);
    }
    totals.read += 1;
    const builder = this.builder;
    builder?.flushEnd(this.options.turnEnded === true);
    const flushed = await this.checkpoint();
    if (builder !== null && E.isRight(flushed)) {
      const counted = builder.signals;
      for (const key of Object.keys(counted) as (keyof SignalCounts)[]) {
        totals.signals[key] += counted[key];
      }
      // A session counts once it has a transcript: lines that mapped to nothing make none.
      if (this.continued) totals.continued += 1;
      else if (this.transcriptBytes !== null) totals.created += 1;
    }
    return flushed;
  }

  /** One line: counted, and mapped into the session when it holds a record. */
  private take(
    line: SourceLine,
    parsed: { readonly record: unknown } | undefined,
    importedFrom: ImportedFrom,
  ): 'mapped' | 'passed over' | 'left alone' {
    const totals = this.totals;
    this.newLines = true;
    totals.linesRead += 1;
    this.offset = line.end;
    this.lineNumber = line.line;
    if (line.text.trim() === '' && !line.tooLong) {
      totals.ignored += 1;
      return 'passed over';
    }
    if (line.tooLong) {
      countDamage(totals, this.file, line.line, 'the line is too long to import');
      return 'passed over';
    }
    if (parsed === undefined) {
      countDamage(totals, this.file, line.line, 'not JSON');
      return 'passed over';
    }
    const builder = this.builder ?? this.openSession(parsed.record, line.line, importedFrom);
    if (builder === 'probed') return 'passed over';
    if (builder === 'left alone') return builder;
    builder.locate(this.file, line.line);
    const outcome = this.mapper(parsed.record, builder);
    if (outcome.kind === 'damaged') countDamage(totals, this.file, line.line, outcome.reason);
    else if (outcome.kind === 'mapped') totals.mapped += 1;
    else totals.ignored += 1;
    return 'mapped';
  }

  /**
   * The session the file's first timestamped record starts, unless that session is already in
   * the home (a copy of a log imported, or a session the ledger does not know): then the file
   * is left alone. A record before it, with no timestamp, cannot be placed: it is only checked.
   */
  private openSession(
    record: unknown,
    line: number,
    importedFrom: ImportedFrom,
  ): SessionBuilder | 'probed' | 'left alone' {
    const { home, tool, totals, file } = this;
    const at = timestampOf(record);
    if (at === undefined) {
      // Nothing before the first timestamped line can be placed; a bookkeeping line is fine.
      const probe = new SessionBuilder(newSessionState('probe', tool));
      const outcome = this.mapper(record, probe);
      if (outcome.kind === 'damaged') countDamage(totals, file, line, outcome.reason);
      else totals.ignored += 1;
      return 'probed';
    }
    const logId = logIdOf(tool, record);
    const sessionId = sessionIdFor(tool, logId ?? file, at);
    if (existsSync(join(home.path, home.sessions.file(sessionId)))) {
      const other = totals.createdFrom.get(sessionId) ?? importedFrom(sessionId, file);
      this.leaveAlone(
        other !== undefined && logId !== undefined
          ? `the same log (session ${logId}) was imported from ${other}, as session ${sessionId}: this copy is not imported, so nothing is counted twice`
          : `session ${sessionId} is already in this home, but ${ledgerFile(tool)} does not record importing it: not imported again`,
      );
      return 'left alone';
    }
    this.builder = new SessionBuilder(newSessionState(sessionId, tool));
    totals.createdFrom.set(sessionId, file);
    return this.builder;
  }

  /** Leaves the file alone, with none of its lines counted. */
  private leaveAlone(reason: string): E.Either<ImportFailure, 'left alone'> {
    this.uncount();
    skipFile(this.totals, this.file, reason);
    return E.right('left alone');
  }

  /** Writes the events built so far to the session, then marks the ledger where the pass is. */
  private async checkpoint(): Promise<E.Either<ImportFailure, void>> {
    const { builder, home, file, totals } = this;
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
        this.transcriptBytes = sizeOf(join(home.path, home.sessions.file(sessionId)));
      }
    }
    const marked = appendLedger(home.path, this.tool, [
      {
        v: 1,
        at: this.now().toISOString(),
        file,
        offset: this.offset,
        line: this.lineNumber,
        session_id: builder?.state.sessionId ?? null,
        transcript_bytes: builder === null ? null : this.transcriptBytes,
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
  }
}
