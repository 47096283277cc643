import type { SessionsPort } from './ports.js';
import type { SourceRead } from './schemas/source-read.js';
import type { TranscriptEvent } from './schemas/transcript.js';

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
