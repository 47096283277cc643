import type { GoalRef } from '@mecha/appraisal-core';
import { type Draw, iso, minute } from './draw.js';
import type { HomeWriter } from './home-writer.js';

/** What becomes of a parked question: answered (the run resumes), let go, or still waiting. */
export type QuestionOutcome = 'answered' | 'abandoned' | 'pending';

/** The questions (`questions/questions.jsonl`): a run parks on a question, answered later or not. */
export function parkQuestion(
  draw: Draw,
  writer: HomeWriter,
  parked: {
    readonly at: number;
    readonly sessionId: string;
    readonly goal: GoalRef | undefined;
    readonly outcome: QuestionOutcome;
  },
): void {
  const { random, id } = draw;
  const questionId = id('q');
  const parkedAt = parked.at;
  writer.add(parkedAt, 'questions', {
    v: 1,
    type: 'parked',
    at: iso(parkedAt),
    question_id: questionId,
    session_id: parked.sessionId,
    purpose: random.chance(0.2) ? 'goal' : 'ordinary',
    ...(parked.goal === undefined ? {} : { goal: parked.goal }),
  });
  if (parked.outcome !== 'pending') {
    const answeredAt = parkedAt + random.int(20, 20 * 60) * minute;
    writer.add(answeredAt, 'questions', {
      v: 1,
      type: parked.outcome,
      at: iso(answeredAt),
      question_id: questionId,
    });
  }
}
