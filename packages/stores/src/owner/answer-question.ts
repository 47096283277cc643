import * as E from 'fp-ts/lib/Either.js';
import type { MechaHome } from '../home-context.js';
import { createOutcomeRecorder } from '../outcome-recorder.js';
import { moverFor, runPresence } from '../run-registration.js';
import { findByPrefix } from './find-by-prefix.js';
import { type OwnerActRefusal, ownerRefused } from './owner-refusal.js';
import { ownerWords } from './owner-words.js';

/** A parked question answered, render-ready. */
export interface AnsweredQuestion {
  readonly state: 'answered';
  readonly questionId: string;
  /** The session that parked it (to resume). */
  readonly sessionId: string;
  /** The answer as kept (line endings `\n`): what the session resumes with. */
  readonly text: string;
  /** `Answered question-… (session …).` */
  readonly line: string;
}

/**
 * Records the owner's answer to a question a run parked, words and all, on the `answered`
 * record, where the harness resuming the session reads it (`readQuestionAnswer`). Answering is
 * a person's act: a request from a run registered with nobody present is refused. An empty
 * answer, one too long for a record, a question never parked, or one already answered or
 * abandoned is refused, and nothing is written.
 */
export async function answerParkedQuestion(
  home: MechaHome,
  request: {
    /** The question's id, or a unique prefix of one. */
    readonly query: string;
    /** Where the owner acted (`cli`, `web`, `slack`). */
    readonly surface: string;
    /** The answer, as the owner typed it. */
    readonly text: string;
    readonly env: Readonly<Record<string, string | undefined>>;
  },
): Promise<E.Either<OwnerActRefusal, AnsweredQuestion>> {
  const answer = ownerWords(request.text, 'the answer');
  if (E.isLeft(answer)) return answer;
  const text = answer.right;
  const mover = moverFor(await runPresence(home, request.env), request.surface);
  if (E.isLeft(mover)) return ownerRefused('nobody_present', mover.left.message);
  const questions = await home.questions.read();
  if (questions.state === 'unreadable') {
    return ownerRefused('unreadable', `the questions could not be read: ${questions.reason}`);
  }
  const parked = new Map(
    questions.records.flatMap((record) =>
      record.type === 'parked' ? [[record.question_id, record.session_id] as const] : [],
    ),
  );
  const match = findByPrefix(parked.keys(), request.query);
  if (match.state === 'none') {
    return ownerRefused('not_found', `no question ${JSON.stringify(request.query)} was parked`);
  }
  if (match.state === 'ambiguous') {
    return ownerRefused(
      'ambiguous',
      `${JSON.stringify(request.query)} matches ${match.candidates.length} questions: give more of the id`,
    );
  }
  const questionId = match.id;
  const settled = questions.records.find(
    (record) => record.type !== 'parked' && record.question_id === questionId,
  );
  if (settled !== undefined) {
    return ownerRefused('unchanged', `${questionId} is already ${settled.type}`);
  }
  const written = await createOutcomeRecorder(home).answerQuestion(questionId, {
    text,
  });
  if (E.isLeft(written)) {
    return ownerRefused('not_written', `${questionId} was not answered: ${written.left.message}`);
  }
  const sessionId = parked.get(questionId) as string;
  return E.right({
    state: 'answered',
    questionId,
    sessionId,
    text,
    line: `Answered ${questionId} (session ${sessionId}).`,
  });
}
