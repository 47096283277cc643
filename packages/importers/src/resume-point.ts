import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { MechaHome } from '@mecha/stores';
import type { LedgerEntry } from './import-ledger.js';
import { skipFile, type Totals } from './import-totals.js';
import type { SessionState } from './session-state.js';

/** A file's size in bytes, or null when it cannot be read. */
export function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/** Where a file's import picks up: its session's state, the byte and line reached. */
export interface ResumePoint {
  /** The session the file went into, or null when no line of it made one yet. */
  readonly state: SessionState | null;
  readonly offset: number;
  readonly line: number;
  /** The session transcript's size when the ledger last marked it. */
  readonly transcriptBytes: number | null;
}

/**
 * Where the import of `file` resumes from its ledger entry `previous`, or undefined when there
 * is nothing to do (counted in `totals`): a file that cannot be read or has not grown, a file
 * shorter than what was imported (rewritten), or a session transcript that changed since the
 * import left it (importing on would double it).
 */
export function resumePoint(
  home: MechaHome,
  file: string,
  previous: LedgerEntry | undefined,
  totals: Totals,
): ResumePoint | undefined {
  const size = sizeOf(file);
  if (size === null) {
    skipFile(totals, file, 'could not be read');
    return undefined;
  }
  if (previous !== undefined && size === previous.offset) {
    totals.unchanged += 1;
    return undefined;
  }
  if (previous !== undefined && size < previous.offset) {
    skipFile(
      totals,
      file,
      `it is shorter (${size} bytes) than what was imported (${previous.offset}): it was rewritten, and is not imported again`,
    );
    return undefined;
  }
  const state: SessionState | null = previous?.state ?? null;
  if (state !== null && previous !== undefined) {
    const transcript = sizeOf(join(home.path, home.sessions.file(state.sessionId)));
    if (transcript !== previous.transcript_bytes) {
      skipFile(
        totals,
        file,
        `session ${state.sessionId}'s transcript is not as the import left it (${transcript ?? 'missing'} bytes, ${previous.transcript_bytes} recorded): not imported again, so nothing is doubled`,
      );
      return undefined;
    }
  }
  return {
    state,
    offset: previous?.offset ?? 0,
    line: previous?.line ?? 0,
    transcriptBytes: previous?.transcript_bytes ?? null,
  };
}
