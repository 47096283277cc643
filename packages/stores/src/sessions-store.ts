import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  idSchema,
  type PortRead,
  type SessionListing,
  type SessionVisitor,
  type SkippedLine,
  type SourceRead,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { readOf } from './decode-lines.js';
import { homeLayout, sessionsEntry } from './home-layout.js';
import { readMissingStore } from './home-manifest.js';
import {
  appendUnderLock,
  type HomeContext,
  renderRecords,
  wholeRecordTest,
} from './jsonl-store.js';
import { knownSessionsFile, readKnownSessions, recordKnownSession } from './known-sessions.js';
import { describeFileError, readJsonlFile } from './read-jsonl-file.js';
import { recordValidator } from './record-validator.js';
import { listingOf, missingTranscript, readHeadAt, scanSessionFiles } from './session-scan.js';
import { type TranscriptEventInput, transcriptReader, transcriptWriter } from './store-schemas.js';
import type { WriteFailure } from './write-failure.js';

/** The session store: `sessions/<id>.jsonl`, one transcript per session, all its runs. */
export interface SessionStore {
  /** The transcript's path relative to the home. */
  file(sessionId: string): string;
  /**
   * Every session, from the head of each transcript (its first `run_start`). A session whose
   * head cannot be read is listed without kind and surface, never guessed ordinary; its start
   * then comes from the time in its id, or the file's date.
   */
  list(): Promise<SourceRead<SessionListing>>;
  /** One session's events with a status; an unknown session is unreadable, never empty. */
  transcript(sessionId: string): Promise<SourceRead<TranscriptEvent>>;
  /**
   * The listing and the population's transcripts in one pass: each transcript is opened and
   * read once, its head listed and, for a member, its events decoded from the same bytes.
   */
  scan(visitor: SessionVisitor): PortRead<SessionListing>;
  /** Appends events to a session's transcript under that session's lock. */
  append(
    sessionId: string,
    events: readonly TranscriptEventInput[],
  ): Promise<E.Either<WriteFailure, void>>;
}

const extension = '.jsonl';
const isSessionId = recordValidator(idSchema).isCanonical;
/**
 * The transcript files of a folder in id order, and what is skipped: names that are not session
 * ids, and sessions this home recorded creating whose transcript has vanished.
 */
function transcriptNames(
  names: readonly string[],
  file: (sessionId: string) => string,
  known: ReadonlySet<string> | undefined,
): { readonly sessionIds: string[]; readonly skipped: SkippedLine[] } {
  const sessionIds: string[] = [];
  const skipped: SkippedLine[] = [];
  for (const name of [...names].sort()) {
    if (!name.endsWith(extension)) continue;
    const sessionId = name.slice(0, -extension.length);
    if (isSessionId(sessionId)) sessionIds.push(sessionId);
    else skipped.push({ file: file(sessionId), line: 0, reason: 'file name is not a session id' });
  }
  if (known !== undefined && known.size > 0) {
    const present = new Set(sessionIds);
    for (const sessionId of [...known].sort()) {
      if (present.has(sessionId)) continue;
      skipped.push({
        file: file(sessionId),
        line: 0,
        reason: `recorded in this home (${knownSessionsFile}) and has vanished`,
      });
    }
  }
  return { sessionIds, skipped };
}

/** Builds the session store of a home. */
export function sessionsStore(context: HomeContext): SessionStore {
  const folder = join(context.path, homeLayout.sessions);
  const file = (sessionId: string) => `${homeLayout.sessions}/${sessionId}${extension}`;
  const isWholeRecord = wholeRecordTest(transcriptReader);
  /** The folder's names, or the store's read state when the folder cannot be listed. */
  const readNames = (): string[] | SourceRead<SessionListing> => {
    try {
      return readdirSync(folder);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') {
        return readMissingStore(context.path, sessionsEntry);
      }
      return { state: 'unreadable', reason: `${sessionsEntry} ${describeFileError(error)}` };
    }
  };
  return {
    file,
    list: async () => {
      const names = readNames();
      if (!Array.isArray(names)) return names;
      const { sessionIds, skipped } = transcriptNames(names, file, readKnownSessions(context.path));
      const listing = sessionIds.map((sessionId) => {
        const path = join(folder, `${sessionId}${extension}`);
        return listingOf(sessionId, readHeadAt(path), path);
      });
      return readOf(listing, skipped);
    },
    transcript: async (sessionId) => {
      if (!isSessionId(sessionId)) {
        return { state: 'unreadable', reason: `${JSON.stringify(sessionId)} is not a session id` };
      }
      const read = readJsonlFile(
        join(folder, `${sessionId}${extension}`),
        file(sessionId),
        transcriptReader,
      );
      return read.state === 'missing'
        ? { state: 'unreadable', reason: missingTranscript(sessionId) }
        : read;
    },
    scan: async (visitor) => {
      const names = readNames();
      if (!Array.isArray(names)) return names;
      const { sessionIds, skipped } = transcriptNames(names, file, readKnownSessions(context.path));
      const listing = await scanSessionFiles(folder, homeLayout.sessions, sessionIds, visitor);
      return readOf(listing, skipped);
    },
    append: async (sessionId, events) => {
      if (!isSessionId(sessionId)) {
        return E.left({
          kind: 'refused',
          message: `${JSON.stringify(sessionId)} is not a session id`,
        });
      }
      if (events.length === 0) return E.right(undefined);
      const rendered = renderRecords(transcriptWriter, events);
      if (E.isLeft(rendered)) return rendered;
      return appendUnderLock(context, {
        file: file(sessionId),
        lockFile: `${file(sessionId)}.lock`,
        manifestEntry: sessionsEntry,
        payload: rendered.right,
        isWholeRecord,
        known: {
          file: knownSessionsFile,
          recorded: () => readKnownSessions(context.path)?.has(sessionId) === true,
          record: () => recordKnownSession(context.path, sessionId, context.lockTimeoutMs),
        },
      });
    },
  };
}
