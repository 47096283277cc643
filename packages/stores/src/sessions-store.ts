import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  idSchema,
  type SessionListing,
  type SkippedLine,
  type SourceRead,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { decodeLines } from './decode-lines.js';
import { homeLayout, sessionsEntry } from './home-layout.js';
import { readMissingStore } from './home-manifest.js';
import {
  appendUnderLock,
  type HomeContext,
  renderRecords,
  wholeRecordTest,
} from './jsonl-store.js';
import {
  decodeJsonl,
  describeFileError,
  readJsonlFile,
  readWholeFile,
  type WholeFile,
} from './read-jsonl-file.js';
import { recordValidator } from './record-validator.js';
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
  /** Appends events to a session's transcript under that session's lock. */
  append(
    sessionId: string,
    events: readonly TranscriptEventInput[],
  ): Promise<E.Either<WriteFailure, void>>;
}

const extension = '.jsonl';
const headBytes = 4096;
const isSessionId = recordValidator(idSchema).isCanonical;
// A transcript larger than this is never kept from a listing: it is read when asked for.
const prefetchFileBytes = 8 * 1024 * 1024;

/** How much a listing may keep of the transcripts it opened, for `transcript` to reuse. */
export const defaultListPrefetchBytes = 32 * 1024 * 1024;
// A kept transcript asked for this soon after its listing is served as the listing read it (one
// consistent view for one readout); later, a `stat` first checks that the file is unchanged.
const keptFreshMs = 10_000;
const idTime = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})/;

/** The start time written into a session id such as `20260925T090000-a1b2c3d4`, if any. */
function timeFromId(sessionId: string): string | undefined {
  const match = idTime.exec(sessionId);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  const iso = `${year}-${month}-${day}T${hour}:${minute}:${second}Z`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

function fallbackStart(path: string, sessionId: string): string {
  const fromId = timeFromId(sessionId);
  if (fromId !== undefined) return fromId;
  try {
    return new Date(statSync(path).mtimeMs).toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

// One buffer for every head read: reads are synchronous, and a fresh 4 KiB buffer per session
// is an allocation outside Node's pool each time.
const headBuffer = Buffer.allocUnsafe(headBytes);

/**
 * Reads the head of a transcript up to its first `run_start`, in 4 KiB steps: a listing costs
 * one small read per session instead of a whole file.
 */
function readHead(path: string): TranscriptEvent | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    let buffer = headBuffer;
    let filled = 0;
    let scanned = 0;
    for (;;) {
      if (filled === buffer.length) {
        const grown = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const got = readSync(fd, buffer, filled, buffer.length - filled, filled);
      const end = filled + got;
      let newline = buffer.indexOf(0x0a, scanned);
      while (newline !== -1 && newline < end) {
        const event = parseEvent(buffer.toString('utf8', scanned, newline));
        if (event?.type === 'run_start') return event;
        scanned = newline + 1;
        newline = buffer.indexOf(0x0a, scanned);
      }
      if (got === 0) {
        const event = scanned < end ? parseEvent(buffer.toString('utf8', scanned, end)) : undefined;
        return event?.type === 'run_start' ? event : undefined;
      }
      filled = end;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `run_start` among the whole lines of a transcript held in memory, and whether it is
 * the very first line (then a later decode can start after it instead of parsing it again).
 */
function headOf(
  bytes: Buffer,
): { readonly event: TranscriptEvent; readonly firstLineEnd?: number } | undefined {
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    const event = parseEvent(bytes.toString('utf8', start, end));
    if (event?.type === 'run_start') {
      return start === 0 && newline !== -1 && isUtf8(bytes.subarray(0, end))
        ? { event, firstLineEnd: end }
        : { event };
    }
    start = end + 1;
  }
  return undefined;
}

function parseEvent(line: string): TranscriptEvent | undefined {
  try {
    return transcriptReader.validate(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/**
 * Builds the session store of a home. A listing has to open every transcript for its head, so
 * it keeps the bytes of those it read whole (up to `prefetchBytes` in all) and `transcript`
 * decodes from them instead of opening the file again: within 10 seconds of the listing as the
 * listing read it, later only after one `stat` shows the file unchanged. Each kept transcript is
 * handed out once; the next listing starts afresh.
 */
export function sessionsStore(
  context: HomeContext,
  prefetchBytes: number = defaultListPrefetchBytes,
): SessionStore {
  const folder = join(context.path, homeLayout.sessions);
  const file = (sessionId: string) => `${homeLayout.sessions}/${sessionId}${extension}`;
  const isWholeRecord = wholeRecordTest(transcriptReader);
  let kept = new Map<
    string,
    WholeFile & { readonly head?: TranscriptEvent; readonly headEnd?: number }
  >();
  let listedAt = 0;
  return {
    file,
    list: async () => {
      kept = new Map();
      listedAt = Date.now();
      let keptBytes = 0;
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENOENT') {
          return readMissingStore(context.path, sessionsEntry);
        }
        return { state: 'unreadable', reason: `${sessionsEntry} ${describeFileError(error)}` };
      }
      const listing: SessionListing[] = [];
      const skipped: SkippedLine[] = [];
      for (const name of names.sort()) {
        if (!name.endsWith(extension)) continue;
        const sessionId = name.slice(0, -extension.length);
        if (!isSessionId(sessionId)) {
          skipped.push({ file: file(sessionId), line: 0, reason: 'file name is not a session id' });
          continue;
        }
        const path = join(folder, name);
        let head: TranscriptEvent | undefined;
        const whole =
          keptBytes < prefetchBytes
            ? readWholeFile(
                path,
                file(sessionId),
                Math.min(prefetchFileBytes, prefetchBytes - keptBytes),
              )
            : undefined;
        if (typeof whole === 'object') {
          const found = headOf(whole.bytes);
          head = found?.event;
          kept.set(
            sessionId,
            found?.firstLineEnd === undefined
              ? whole
              : { ...whole, head: found.event, headEnd: found.firstLineEnd },
          );
          keptBytes += whole.size;
        } else if (whole === undefined) {
          head = readHead(path);
        }
        listing.push(
          head?.type === 'run_start'
            ? {
                sessionId,
                startedAt: head.at,
                kind: head.session_kind,
                surface: head.surface,
              }
            : { sessionId, startedAt: fallbackStart(path, sessionId) },
        );
      }
      return skipped.length === 0
        ? { state: 'read', records: listing }
        : { state: 'partial', records: listing, skipped };
    },
    transcript: async (sessionId) => {
      if (!isSessionId(sessionId)) {
        return { state: 'unreadable', reason: `${JSON.stringify(sessionId)} is not a session id` };
      }
      const path = join(folder, `${sessionId}${extension}`);
      const prefetched = kept.get(sessionId);
      if (prefetched !== undefined) {
        kept.delete(sessionId);
        let unchanged = Date.now() - listedAt < keptFreshMs;
        if (!unchanged) {
          try {
            const now = statSync(path);
            unchanged = now.size === prefetched.size && now.mtimeMs === prefetched.mtimeMs;
          } catch {
            // Gone since the listing: read it as it is now.
          }
        }
        if (unchanged) {
          if (prefetched.head === undefined || prefetched.headEnd === undefined) {
            return decodeJsonl(
              prefetched.bytes,
              prefetched.size,
              file(sessionId),
              transcriptReader,
            );
          }
          // The listing parsed the first line already: decode from the second.
          const sink = { records: [prefetched.head], skipped: [] as SkippedLine[] };
          decodeLines(prefetched.bytes, prefetched.headEnd + 1, prefetched.size, {
            file: file(sessionId),
            firstLine: 2,
            validator: transcriptReader,
            sink,
          });
          return sink.skipped.length === 0
            ? { state: 'read', records: sink.records }
            : { state: 'partial', records: sink.records, skipped: sink.skipped };
        }
      }
      const read = readJsonlFile(path, file(sessionId), transcriptReader);
      return read.state === 'missing'
        ? { state: 'unreadable', reason: `no transcript for session ${sessionId}` }
        : read;
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
      });
    },
  };
}
