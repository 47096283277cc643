import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rightOrThrow } from '@mecha/errors';
import type * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { type MechaHome, openHome } from '../open-home.js';
import { answerParkedQuestion } from '../owner/answer-question.js';
import { createSessionRecorder } from '../session-recorder.js';
import { readQuestionWords } from './read-question-words.js';

// The words of a parked question, read from the parking run's transcript over real files. A
// stepping clock gives every record its own second, so "before" and "after" are exact.

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');

function freshHome(): MechaHome {
  let tick = Date.parse('2026-11-30T09:00:00.000Z');
  let ids = 0;
  return openHome(tempDir(), {
    clock: () => {
      tick += 1000;
      return new Date(tick);
    },
    newId: (prefix) => `${prefix}-${++ids}`,
  });
}

const question =
  'Which totals go in the report: Lakeside or Northwind?\nI can do either by Friday.';

describe('readQuestionWords', () => {
  it("reads the parking run's last message from the model as the question's words", async () => {
    const home = freshHome();
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'web' }));
    right(await run.message({ turn: 0, role: 'owner', taint: 'clean', text: 'Write the report' }));
    right(await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'Working.' }));
    const { messageId } = right(
      await run.message({ turn: 2, role: 'assistant', taint: 'third_party', text: question }),
    );
    const { questionId } = right(await session.parkQuestion());
    right(await run.end({ stopCause: 'parked', turns: 2 }));
    expect(await readQuestionWords(home, questionId)).toEqual({
      state: 'asked',
      questionId,
      sessionId: session.sessionId,
      runId: run.runId,
      messageId,
      at: expect.any(String),
      text: question,
      taint: 'third_party',
      skipped: 0,
    });
  });

  it('finds the words when the harness parks before it records the message', async () => {
    const home = freshHome();
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'tui' }));
    const { questionId } = right(await session.parkQuestion({ purpose: 'goal' }));
    right(await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: question }));
    right(await run.end({ stopCause: 'parked' }));
    expect(await readQuestionWords(home, questionId)).toMatchObject({
      state: 'asked',
      text: question,
    });
  });

  it('keeps each question to its own run when a resumed session parks again', async () => {
    const home = freshHome();
    const session = createSessionRecorder(home);
    const first = right(await session.startRun({ surface: 'web' }));
    right(await first.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'First?' }));
    const { questionId: one } = right(await session.parkQuestion());
    right(await first.end({ stopCause: 'parked' }));
    const answered = await answerParkedQuestion(home, {
      query: one,
      surface: 'web',
      text: 'Yes',
      env: {},
    });
    expect(rightOrThrow(answered).state).toBe('answered');
    const second = right(await session.startRun({ surface: 'web', resumed: true }));
    right(await second.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'Second?' }));
    const { questionId: two } = right(await session.parkQuestion());
    right(await second.end({ stopCause: 'parked' }));
    expect(await readQuestionWords(home, one)).toMatchObject({ state: 'asked', text: 'First?' });
    expect(await readQuestionWords(home, two)).toMatchObject({
      state: 'asked',
      text: 'Second?',
      runId: second.runId,
    });
  });

  it.each([
    ['no message from the model', undefined, /recorded no message from the model$/],
    ['a message without its text', { text: undefined }, /was recorded without its text$/],
    ['a message of only control characters', { text: '\u001b\u200b \n\u0007' }, /is empty$/],
  ])(
    'says the words were not recorded for %s, never an empty question',
    async (_, message, reason) => {
      const home = freshHome();
      const session = createSessionRecorder(home);
      const run = right(await session.startRun({ surface: 'web' }));
      if (message !== undefined) {
        right(
          await run.message({
            turn: 1,
            role: 'assistant',
            taint: 'clean',
            ...(message.text === undefined ? {} : { text: message.text }),
          }),
        );
      }
      // An owner's message is not the question.
      right(await run.message({ turn: 1, role: 'owner', taint: 'clean', text: 'Go on' }));
      const { questionId } = right(await session.parkQuestion());
      right(await run.end({ stopCause: 'parked' }));
      const read = await readQuestionWords(home, questionId);
      expect(read).toMatchObject({ state: 'not_recorded', questionId, skipped: 0 });
      expect(read.state === 'not_recorded' && read.reason).toMatch(reason);
    },
  );

  it('says a transcript that cannot be read is unreadable, and a damaged one partial', async () => {
    const home = freshHome();
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'web' }));
    right(await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: question }));
    const { questionId } = right(await session.parkQuestion());
    const file = join(home.path, home.sessions.file(session.sessionId));
    appendFileSync(file, '{"damaged\n');
    expect(await readQuestionWords(home, questionId)).toMatchObject({
      state: 'asked',
      text: question,
      skipped: 1,
    });
    rmSync(file);
    const gone = await readQuestionWords(home, questionId);
    expect(gone.state).toBe('unreadable');
    expect(gone.state === 'unreadable' && gone.reason).toMatch(
      new RegExp(`^the transcript of session ${session.sessionId} could not be read: `),
    );
  });

  it('says a question never parked is not found, and unreadable questions are unreadable', async () => {
    const home = freshHome();
    expect(await readQuestionWords(home, 'q-none')).toEqual({
      state: 'not_found',
      questionId: 'q-none',
    });
    rmSync(join(home.path, 'questions'), { recursive: true, force: true });
    writeFileSync(join(home.path, 'questions'), 'not a folder');
    expect((await readQuestionWords(home, 'q-none')).state).toBe('unreadable');
  });
});
