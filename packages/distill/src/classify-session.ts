import type { QuestionRecord, SourceRead, TranscriptEvent } from '@mecha/appraisal-core';

/** What decides whether a session is finished and long enough to distill. */
export interface ClassifyOptions {
  /** The moment of the run. */
  readonly now: Date;
  /** A run with no recorded end is taken as over (crashed) once it has been quiet this long. */
  readonly staleAfterMs: number;
  /** Fewer owner and agent messages with text than this is too short to have taught anything. */
  readonly minMessages: number;
  /** Fewer characters of owner and agent text than this is too short as well. */
  readonly minCharacters: number;
}

/** Defaults: a run quiet for 24 hours is over; two messages and 120 characters make a session. */
export const defaultClassifyOptions: Omit<ClassifyOptions, 'now'> = {
  staleAfterMs: 24 * 3_600_000,
  minMessages: 2,
  minCharacters: 120,
};

/**
 * Where a session stands for distillation: still running, parked on a question the owner may
 * yet answer, finished but too short, or finished and ready, with the time it ended.
 */
export type SessionClass =
  | { readonly state: 'running' }
  | { readonly state: 'parked' }
  | { readonly state: 'too_short'; readonly endedAt: string }
  | { readonly state: 'ready'; readonly endedAt: string };

function parkedQuestionAbandoned(
  sessionId: string,
  questions: SourceRead<QuestionRecord>,
): boolean {
  if (questions.state === 'unreadable') return false;
  let latest: string | undefined;
  for (const record of questions.records) {
    if (record.type === 'parked' && record.session_id === sessionId) latest = record.question_id;
  }
  if (latest === undefined) return false;
  return questions.records.some(
    (record) => record.type === 'abandoned' && record.question_id === latest,
  );
}

/**
 * Classifies a session from its transcript (all its runs) and the question store. A session is
 * closed when its last run ended other than parked, when its parked question was abandoned,
 * or when its last run has been quiet past `staleAfterMs` with no end (a crash leaves that).
 */
export function classifySession(
  sessionId: string,
  events: readonly TranscriptEvent[],
  questions: SourceRead<QuestionRecord>,
  options: ClassifyOptions,
): SessionClass {
  let lastStart = -1;
  let lastEnd = -1;
  let messages = 0;
  let characters = 0;
  let endedAt: string | undefined;
  events.forEach((event, index) => {
    if (event.type === 'run_start') lastStart = index;
    if (event.type === 'run_end') lastEnd = index;
    if (event.type === 'message' && (event.role === 'owner' || event.role === 'assistant')) {
      const length = event.text?.trim().length ?? 0;
      if (length > 0) messages += 1;
      characters += length;
    }
    if (endedAt === undefined || Date.parse(event.at) >= Date.parse(endedAt)) endedAt = event.at;
  });
  if (endedAt === undefined) return { state: 'too_short', endedAt: options.now.toISOString() };
  if (lastStart > lastEnd && options.now.getTime() - Date.parse(endedAt) < options.staleAfterMs) {
    return { state: 'running' };
  }
  const end = events[lastEnd];
  if (
    lastEnd > lastStart &&
    end?.type === 'run_end' &&
    end.stop_cause === 'parked' &&
    !parkedQuestionAbandoned(sessionId, questions)
  ) {
    return { state: 'parked' };
  }
  if (messages < options.minMessages || characters < options.minCharacters) {
    return { state: 'too_short', endedAt };
  }
  return { state: 'ready', endedAt };
}
