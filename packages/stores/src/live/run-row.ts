import {
  type AppraisalChip,
  appraisalChip,
  type Label,
  readSession,
  type SessionListing,
  type SessionStoreIndex,
  type SourceRead,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import type { CharterLine } from '@mecha/charter';

/** How long an answer is kept on a row before it is cut. */
const answerCharacters = 240;

/** One session as a live surface shows it: where and when, its last answer, and its chip. */
export interface RunRow {
  readonly sessionId: string;
  readonly listing: SessionListing;
  readonly state: 'read' | 'partial' | 'unreadable';
  /** Why the transcript could not be read, when it could not. */
  readonly reason?: string;
  /** Runs begun and runs finished; unknown (null) for an unreadable transcript, never 0. */
  readonly runs: number | null;
  readonly endedRuns: number | null;
  readonly label: Label | null;
  readonly valence: {
    readonly positive: number;
    readonly negative: number;
    readonly partial: boolean;
  } | null;
  /** The chip every surface shows, or undefined for a silent run (or an unreadable one). */
  readonly chip: AppraisalChip | undefined;
  /** The last assistant answer, shortened; undefined when the run recorded none. */
  readonly lastAnswer: string | undefined;
  /** Whether anything third-party reached the session (the taint chip, apart from the appraisal). */
  readonly thirdParty: boolean;
  /** When the session last recorded anything (its last event), for ordering live updates. */
  readonly lastAt: string | undefined;
}

/** What a row keeps from the whole transcript besides the reading's events. */
export interface RowExtras {
  readonly lastAnswer: string | undefined;
  readonly thirdParty: boolean;
}

/** The last answer and the third-party mark, read from the whole transcript. */
export function rowExtras(transcript: SourceRead<TranscriptEvent>): RowExtras {
  if (transcript.state === 'unreadable') return { lastAnswer: undefined, thirdParty: false };
  const records = transcript.records;
  let lastAnswer: string | undefined;
  for (let index = records.length - 1; index >= 0 && lastAnswer === undefined; index -= 1) {
    const event = records[index];
    if (event?.type === 'message' && event.role === 'assistant' && event.text !== undefined) {
      const text = event.text.replace(/\s+/g, ' ').trim();
      lastAnswer =
        text.length > answerCharacters ? `${text.slice(0, answerCharacters - 1)}…` : text;
    }
  }
  const thirdParty = records.some(
    (event) =>
      (event.type === 'message' || event.type === 'tool_result') && event.taint === 'third_party',
  );
  return { lastAnswer, thirdParty };
}

/** Where and when a session began, from its transcript's first run (or as last known). */
export function listingFrom(
  sessionId: string,
  transcript: SourceRead<TranscriptEvent>,
  previous: SessionListing | undefined,
): SessionListing {
  if (transcript.state !== 'unreadable') {
    const head = transcript.records.find((event) => event.type === 'run_start');
    if (head?.type === 'run_start') {
      return { sessionId, startedAt: head.at, kind: head.session_kind, surface: head.surface };
    }
  }
  return previous ?? { sessionId, startedAt: new Date(0).toISOString() };
}

/** Newest first, by when the session began, then by id. */
export function newestFirst(a: RunRow, b: RunRow): number {
  const x = a.listing.startedAt;
  const y = b.listing.startedAt;
  if (x !== y) return x < y ? 1 : -1;
  return a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0;
}

/** A session's row: its reading over the stores' index, or unread when its transcript is. */
export function deriveRunRow(
  listing: SessionListing,
  transcript: SourceRead<TranscriptEvent>,
  extras: RowExtras,
  index: SessionStoreIndex,
  charter: SourceRead<CharterLine>,
): RunRow {
  const sessionId = listing.sessionId;
  const { lastAnswer, thirdParty } = extras;
  if (transcript.state === 'unreadable') {
    return {
      sessionId,
      listing,
      state: 'unreadable',
      reason: transcript.reason,
      runs: null,
      endedRuns: null,
      label: null,
      valence: null,
      chip: undefined,
      lastAnswer: undefined,
      thirdParty,
      lastAt: undefined,
    };
  }
  const reading = readSession(index.evidenceFor(sessionId, transcript), charter);
  const records = transcript.records;
  return {
    sessionId,
    listing,
    state: transcript.state,
    runs: records.filter((event) => event.type === 'run_start').length,
    endedRuns: records.filter((event) => event.type === 'run_end').length,
    label: reading.label,
    valence: { ...reading.valence },
    chip: appraisalChip(reading),
    lastAnswer,
    thirdParty,
    lastAt: records[records.length - 1]?.at,
  };
}

/** A session's runs, each with its own events in order: what a run-end surface posts from. */
export function runsOfTranscript(
  events: readonly TranscriptEvent[],
): readonly { readonly runId: string; readonly events: readonly TranscriptEvent[] }[] {
  const byRun = new Map<string, TranscriptEvent[]>();
  for (const event of events) {
    const run = byRun.get(event.run_id);
    if (run === undefined) byRun.set(event.run_id, [event]);
    else run.push(event);
  }
  return [...byRun].map(([runId, run]) => ({ runId, events: run }));
}
