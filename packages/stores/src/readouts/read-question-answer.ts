import type { MechaHome } from '../home-context.js';

/** What is known of one parked question, read by its exact id. */
interface QuestionFound {
  readonly questionId: string;
  /** The session that parked it: the one to resume. */
  readonly sessionId: string;
  /** `goal` when the run asked the owner to confirm its goal. */
  readonly purpose: 'goal' | 'ordinary';
  /** Damaged question lines skipped (0 when read whole): an answer on one of them is not seen. */
  readonly skipped: number;
}

/** Where a parked question stands, as the harness resuming its session needs it. */
export type QuestionAnswerRead =
  | { readonly state: 'unreadable'; readonly reason: string }
  | { readonly state: 'not_found'; readonly questionId: string; readonly skipped: number }
  | (QuestionFound & { readonly state: 'waiting' })
  | (QuestionFound & {
      readonly state: 'answered';
      /** When the answer was recorded. */
      readonly at: string;
      /**
       * The owner's answer, as typed (line endings `\n`): what the session resumes with.
       * Absent on an answer recorded before mecha kept the words.
       */
      readonly text?: string;
    })
  | (QuestionFound & { readonly state: 'abandoned'; readonly at: string });

/**
 * Reads the owner's answer to one parked question, for the harness that resumes its session:
 * still waiting, answered (with the owner's words), or abandoned. The first settling record is
 * the one that counts. The answer is the owner's private words: hand it to the resumed run as
 * the owner's message, and to nothing that leaves mecha.
 */
export async function readQuestionAnswer(
  home: MechaHome,
  questionId: string,
): Promise<QuestionAnswerRead> {
  const questions = await home.questions.read();
  if (questions.state === 'unreadable') return { state: 'unreadable', reason: questions.reason };
  const skipped = questions.state === 'partial' ? questions.skipped.length : 0;
  const parked = questions.records.find(
    (record) => record.type === 'parked' && record.question_id === questionId,
  );
  if (parked?.type !== 'parked') return { state: 'not_found', questionId, skipped };
  const found: QuestionFound = {
    questionId,
    sessionId: parked.session_id,
    purpose: parked.purpose,
    skipped,
  };
  const settled = questions.records.find(
    (record) => record.type !== 'parked' && record.question_id === questionId,
  );
  if (settled === undefined || settled.type === 'parked') return { ...found, state: 'waiting' };
  if (settled.type === 'abandoned') return { ...found, state: 'abandoned', at: settled.at };
  return {
    ...found,
    state: 'answered',
    at: settled.at,
    ...(settled.text === undefined ? {} : { text: settled.text }),
  };
}
