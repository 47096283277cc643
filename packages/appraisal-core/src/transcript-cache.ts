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

/**
 * Reads transcripts a bounded number at a time, in the order given, and hands each to `fold`
 * as its batch arrives; nothing is kept, so a readout over many sessions holds one batch.
 */
export async function foldTranscripts(
  sessionIds: readonly string[],
  read: TranscriptReader,
  fold: (sessionId: string, transcript: SourceRead<TranscriptEvent>) => void,
  batch = 64,
): Promise<void> {
  for (let start = 0; start < sessionIds.length; start += batch) {
    const slice = sessionIds.slice(start, start + batch);
    const reads = await Promise.all(slice.map((sessionId) => read(sessionId)));
    for (const [offset, transcript] of reads.entries()) fold(slice[offset] as string, transcript);
  }
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
