import { stripControl, type Taint, type TranscriptEvent } from '@mecha/appraisal-core';
import type { MechaHome } from '../home-context.js';

/** The words of a parked question, as its run's transcript holds them, or why they are not known. */
export type QuestionWordsRead =
  | {
      /** The questions store, or the parking session's transcript, could not be read. */
      readonly state: 'unreadable';
      readonly reason: string;
    }
  | { readonly state: 'not_found'; readonly questionId: string }
  | {
      /** The transcript was read and holds no words for the question; `reason` says why. */
      readonly state: 'not_recorded';
      readonly questionId: string;
      readonly sessionId: string;
      readonly reason: string;
      /** Damaged transcript lines skipped (0 when read whole): the words may be on one. */
      readonly skipped: number;
    }
  | {
      readonly state: 'asked';
      readonly questionId: string;
      readonly sessionId: string;
      /** The run that parked the question, and its message that asked it. */
      readonly runId: string;
      readonly messageId: string;
      readonly at: string;
      /** The model's words as recorded: strip control characters and escape them to show. */
      readonly text: string;
      /** Whether third-party text was in the conversation when it was written. */
      readonly taint: Taint;
      /** Damaged transcript lines skipped (0 when read whole): a later message may be on one. */
      readonly skipped: number;
    };

const time = (iso: string) => Date.parse(iso);

/**
 * Reads the words a parked question put to the owner. A parked record names only its session;
 * the words are in that session's transcript: the last assistant message of the run that
 * parked it (the session's latest run begun by the time the question was parked). A
 * transcript that cannot be read is `unreadable`, and one with no words for the question is
 * `not_recorded`: never an empty question.
 */
export async function readQuestionWords(
  home: MechaHome,
  questionId: string,
): Promise<QuestionWordsRead> {
  const questions = await home.questions.read();
  if (questions.state === 'unreadable') {
    return { state: 'unreadable', reason: `the questions could not be read: ${questions.reason}` };
  }
  const parked = questions.records.find(
    (record) => record.type === 'parked' && record.question_id === questionId,
  );
  if (parked?.type !== 'parked') return { state: 'not_found', questionId };
  const sessionId = parked.session_id;
  const transcript = await home.sessions.transcript(sessionId);
  if (transcript.state === 'unreadable') {
    return {
      state: 'unreadable',
      reason: `the transcript of session ${sessionId} could not be read: ${transcript.reason}`,
    };
  }
  const skipped = transcript.state === 'partial' ? transcript.skipped.length : 0;
  const notRecorded = (reason: string): QuestionWordsRead => ({
    state: 'not_recorded',
    questionId,
    sessionId,
    reason:
      skipped === 0
        ? reason
        : `${reason} (${skipped} damaged line${skipped === 1 ? ' was' : 's were'} skipped: the words may be on one)`,
    skipped,
  });
  const parkedAt = time(parked.at);
  const runId = lastRunBegunBy(transcript.records, parkedAt);
  if (runId === undefined) {
    return notRecorded(`no run of session ${sessionId} had begun when the question was parked`);
  }
  const asked = transcript.records.findLast(
    (event): event is Extract<TranscriptEvent, { type: 'message' }> =>
      event.type === 'message' && event.role === 'assistant' && event.run_id === runId,
  );
  if (asked === undefined) {
    return notRecorded(`run ${runId} recorded no message from the model`);
  }
  if (asked.text === undefined) {
    return notRecorded(`run ${runId}'s last message was recorded without its text`);
  }
  if (stripControl(asked.text).trim() === '') {
    return notRecorded(`run ${runId}'s last message is empty`);
  }
  return {
    state: 'asked',
    questionId,
    sessionId,
    runId,
    messageId: asked.message_id,
    at: asked.at,
    text: asked.text,
    taint: asked.taint,
    skipped,
  };
}

/** The latest run of a transcript begun at or before a moment (a run resumed later is not it). */
function lastRunBegunBy(events: readonly TranscriptEvent[], moment: number): string | undefined {
  let runId: string | undefined;
  for (const event of events) {
    if (event.type === 'run_start' && time(event.at) <= moment) runId = event.run_id;
  }
  return runId;
}
