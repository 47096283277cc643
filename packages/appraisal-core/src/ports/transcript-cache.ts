import { wantedBy } from '../rules/population.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import type { SessionListing, SessionsPort } from './appraisal-ports.js';

/** Reads a session's transcript through its port at most once per readout. */
export type TranscriptReader = (sessionId: string) => Promise<SourceRead<TranscriptEvent>>;

/** A transcript reader that remembers each answer, so two readouts in one call share reads. */
export function transcriptCache(sessions: SessionsPort): TranscriptReader {
  const cache = new Map<string, Promise<SourceRead<TranscriptEvent>>>();
  return (sessionId) => {
    let read = cache.get(sessionId);
    if (read === undefined) {
      read = sessions.transcript(sessionId);
      cache.set(sessionId, read);
    }
    return read;
  };
}

/**
 * Reads many transcripts a bounded number at a time, in the order given, so a file-backed
 * port is never asked to open ten thousand files at once.
 */
export async function readTranscripts(
  sessionIds: readonly string[],
  read: TranscriptReader,
  batch = 64,
): Promise<SourceRead<TranscriptEvent>[]> {
  const results: SourceRead<TranscriptEvent>[] = [];
  for (let start = 0; start < sessionIds.length; start += batch) {
    const slice = sessionIds.slice(start, start + batch);
    results.push(...(await Promise.all(slice.map((sessionId) => read(sessionId)))));
  }
  return results;
}

/**
 * A transcript with only the events of `types` kept, and always its last event (its time is
 * when the session ended). The read state and skipped lines are kept as they are.
 */
export function projectTranscript(
  transcript: SourceRead<TranscriptEvent>,
  types: readonly TranscriptEvent['type'][] | undefined,
): SourceRead<TranscriptEvent> {
  if (types === undefined || transcript.state === 'unreadable') return transcript;
  const keep = new Set<string>(types);
  const all = transcript.records;
  const records = all.filter((event, index) => keep.has(event.type) || index === all.length - 1);
  if (records.length === all.length) return transcript;
  return transcript.state === 'partial'
    ? { state: 'partial', records, skipped: transcript.skipped }
    : { state: 'read', records };
}

/**
 * A single pass built from a port's `list` and `transcript`, for ports with no cheaper way: the
 * listing first, then the wanted sessions read a bounded number at a time, in listing order,
 * each cut down to the visitor's event types and handed over as its batch arrives.
 */
export function scanByListing(
  sessions: Pick<SessionsPort, 'list' | 'transcript'>,
  batch = 64,
): SessionsPort['scan'] {
  return async (visitor) => {
    const listing = await sessions.list();
    if (listing.state === 'unreadable') return listing;
    const total = listing.records.length;
    const wants = wantedBy(visitor.population);
    const seen = new Set<string>();
    const members = listing.records.filter((entry) => {
      if (seen.has(entry.sessionId)) return false;
      seen.add(entry.sessionId);
      return wants(entry);
    });
    visitor.progress?.(0, total);
    for (let start = 0; start < members.length; start += batch) {
      const slice = members.slice(start, start + batch);
      const reads = await Promise.all(slice.map((entry) => sessions.transcript(entry.sessionId)));
      reads.forEach((transcript, offset) => {
        visitor.visit(
          slice[offset] as SessionListing,
          projectTranscript(transcript, visitor.events),
        );
      });
    }
    visitor.progress?.(total, total);
    return listing;
  };
}

/**
 * A transcript cut down to its runs' starts and ends: what the successes reader needs to tell
 * when the work an answer unblocked finished, without keeping the whole conversation.
 */
export function runBoundaries(
  transcript: SourceRead<TranscriptEvent>,
): SourceRead<TranscriptEvent> {
  if (transcript.state === 'unreadable') return transcript;
  const records = transcript.records.filter(
    (event) => event.type === 'run_start' || event.type === 'run_end',
  );
  return transcript.state === 'partial'
    ? { state: 'partial', records, skipped: transcript.skipped }
    : { state: 'read', records };
}
