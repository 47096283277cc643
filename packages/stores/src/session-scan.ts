import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  projectTranscript,
  type SessionListing,
  type SessionVisitor,
  type SkippedLine,
  type SourceRead,
  type TranscriptEvent,
  wantedBy,
} from '@mecha/appraisal-core';
import { decodeLines, readOf } from './decode-lines.js';
import {
  decodeJsonl,
  describeFileError,
  readBlockBytes,
  readFully,
  readJsonlFile,
} from './read-jsonl-file.js';
import { transcriptReader } from './store-schemas.js';

const headBytes = 4096;
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
 * Looks for the first `run_start` among the lines of `bytes[start, end)`, the unterminated last
 * one too when `final`. Answers the event and its line's bounds, or where the first line it
 * could not finish begins.
 */
function findRunStart(
  bytes: Buffer,
  start: number,
  end: number,
  final: boolean,
):
  | { readonly event: TranscriptEvent; readonly lineStart: number; readonly lineEnd: number }
  | { readonly scanned: number } {
  let lineStart = start;
  while (lineStart < end) {
    const newline = bytes.indexOf(0x0a, lineStart);
    const terminated = newline !== -1 && newline < end;
    if (!terminated && !final) break;
    const lineEnd = terminated ? newline : end;
    const event = parseEvent(bytes.toString('utf8', lineStart, lineEnd));
    if (event?.type === 'run_start') return { event, lineStart, lineEnd };
    lineStart = lineEnd + 1;
  }
  return { scanned: lineStart };
}

/**
 * Reads the head of an open transcript up to its first `run_start`, in 4 KiB steps: a listing
 * costs one small read per session instead of a whole file.
 */
function readHead(fd: number): TranscriptEvent | undefined {
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
    const found = findRunStart(buffer, scanned, end, got === 0);
    if ('event' in found) return found.event;
    if (got === 0) return undefined;
    scanned = found.scanned;
    filled = end;
  }
}

/** The head of the transcript at `path`, or undefined when it cannot be opened or has none. */
export function readHeadAt(path: string): TranscriptEvent | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return readHead(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `run_start` among the lines of `bytes[0, length)`, and where the first line ends
 * when it is that head (a decode can then start after it instead of parsing it again).
 */
function headOf(
  bytes: Buffer,
  length: number,
): { readonly event: TranscriptEvent; readonly firstLineEnd?: number } | undefined {
  const found = findRunStart(bytes, 0, length, true);
  if (!('event' in found)) return undefined;
  const { event, lineStart, lineEnd } = found;
  return lineStart === 0 && lineEnd < length && isUtf8(bytes.subarray(0, lineEnd))
    ? { event, firstLineEnd: lineEnd }
    : { event };
}

function parseEvent(line: string): TranscriptEvent | undefined {
  try {
    return transcriptReader.validate(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** How the store lists a session: from its head, or without kind and surface when it has none. */
export function listingOf(
  sessionId: string,
  head: TranscriptEvent | undefined,
  path: string,
): SessionListing {
  return head?.type === 'run_start'
    ? { sessionId, startedAt: head.at, kind: head.session_kind, surface: head.surface }
    : { sessionId, startedAt: fallbackStart(path, sessionId) };
}

/**
 * Reads one transcript for a scan through `fd`: the whole file into the scratch buffer (grown
 * when too small), its head for the listing, and its events only when `wants` takes the
 * listing. A file larger than one read block is listed from its head and streamed when wanted.
 */
function scanTranscript(
  fd: number,
  path: string,
  file: string,
  sessionId: string,
  scratch: { buffer: Buffer },
  wants: (entry: SessionListing) => boolean,
): Scanned {
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    const entry = listingOf(sessionId, undefined, path);
    const reason = stat.isDirectory() ? 'is a directory, not a file' : 'is not a regular file';
    return wants(entry)
      ? { entry, read: { state: 'unreadable', reason: `${file} ${reason}` } }
      : { entry };
  }
  if (stat.size > readBlockBytes) {
    const entry = listingOf(sessionId, readHead(fd), path);
    if (!wants(entry)) return { entry };
    const read = readJsonlFile(path, file, transcriptReader);
    return {
      entry,
      read:
        read.state === 'missing'
          ? { state: 'unreadable', reason: missingTranscript(sessionId) }
          : read,
    };
  }
  if (scratch.buffer.length < stat.size) {
    scratch.buffer = Buffer.allocUnsafe(
      Math.max(stat.size, Math.min(2 * stat.size, readBlockBytes)),
    );
  }
  const buffer = scratch.buffer;
  const length = readFully(fd, buffer, stat.size, 0);
  const head = headOf(buffer, length);
  const entry = listingOf(sessionId, head?.event, path);
  if (!wants(entry)) return { entry };
  if (head?.firstLineEnd === undefined) {
    return { entry, read: decodeJsonl(buffer, length, file, transcriptReader) };
  }
  // The head is the first line, parsed already: decode from the second.
  const sink = { records: [head.event], skipped: [] as SkippedLine[] };
  decodeLines(buffer, head.firstLineEnd + 1, length, {
    file,
    firstLine: 2,
    validator: transcriptReader,
    sink,
  });
  return { entry, read: readOf(sink.records, sink.skipped) };
}

/** Why a session's transcript cannot be read when its file is not there. */
export function missingTranscript(sessionId: string): string {
  return `no transcript for session ${sessionId}`;
}

/** One listed session, and its transcript when the scan wants it. */
interface Scanned {
  readonly entry: SessionListing;
  readonly read?: SourceRead<TranscriptEvent>;
}

/** Opens one transcript and scans it; a file that cannot be opened is listed without a head. */
function scanFile(
  folder: string,
  store: string,
  sessionId: string,
  scratch: { buffer: Buffer },
  wants: (entry: SessionListing) => boolean,
): Scanned {
  const path = join(folder, `${sessionId}.jsonl`);
  const file = `${store}/${sessionId}.jsonl`;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return scanTranscript(fd, path, file, sessionId, scratch, wants);
  } catch (error) {
    // Unopenable, or it failed mid-read: listed without a head, unreadable if wanted.
    const entry = listingOf(sessionId, undefined, path);
    const reason =
      (error as { code?: unknown }).code === 'ENOENT'
        ? missingTranscript(sessionId)
        : `${file} ${describeFileError(error)}`;
    return wants(entry) ? { entry, read: { state: 'unreadable', reason } } : { entry };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// A scan yields to the event loop (and reports progress) after this many sessions, so timers
// and signals are served during a long scan.
const yieldEvery = 64;

/**
 * Lists and reads the given transcripts (`store/<id>.jsonl` in `folder`) in one pass, handing
 * each wanted transcript to the visitor in listing order, cut down to its event types, and
 * answers the listing. One transcript is held at a time, in one reused buffer.
 */
export async function scanSessionFiles(
  folder: string,
  store: string,
  sessionIds: readonly string[],
  visitor: SessionVisitor,
): Promise<SessionListing[]> {
  const wants = wantedBy(visitor.population);
  const total = sessionIds.length;
  const listing: SessionListing[] = [];
  const scratch = { buffer: Buffer.allocUnsafe(64 * 1024) };
  visitor.progress?.(0, total);
  for (const [index, sessionId] of sessionIds.entries()) {
    if (index > 0 && index % yieldEvery === 0) {
      visitor.progress?.(index, total);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const { entry, read } = scanFile(folder, store, sessionId, scratch, wants);
    listing.push(entry);
    if (read !== undefined) visitor.visit(entry, projectTranscript(read, visitor.events));
  }
  visitor.progress?.(total, total);
  return listing;
}
