import { isLeft } from '@mecha/errors';
import { answerParkedQuestion, homeLayout, type MechaHome, readQuestionWords } from '@mecha/stores';
import type { Context, Hono } from 'hono';
import { parkedQuestions, questionsOnPage, questionsPage } from '../pages/drafts-page.js';
import type { Said } from '../views/layout.js';
import {
  type BoardContext,
  badPage,
  keptPerVersion,
  pageOf,
  refused,
  type Status,
} from './board-context.js';

/** Questions parked for the owner: their paged list, and Answer. */
export function questionsRoutes(app: Hono, board: BoardContext): void {
  const { home, readout, render, csrfToken, now } = board;
  // A home whose questions are read from the readout's memory: a question's words are looked up
  // per question, and each lookup would otherwise read the whole questions store again.
  const questionsHome: MechaHome = {
    ...home,
    questions: { ...home.questions, read: () => readout.ports().questions.read() },
  };

  // The parked questions and the words asked, derived once per change of the readout.
  const parkedNow = keptPerVersion(readout, async () => {
    const read = await readout.ports().questions.read();
    return read.state === 'unreadable'
      ? read
      : { state: read.state, parked: parkedQuestions(read.records) };
  });
  const wordsNow = keptPerVersion(
    readout,
    () => new Map<string, ReturnType<typeof readQuestionWords>>(),
  );
  const questions = async (context: Context, said?: Said, status: Status = 200) => {
    const page = pageOf(context);
    if (page === null) return badPage(board, context, 'Questions', '/questions');
    const read = await parkedNow();
    const parked = read.state === 'unreadable' ? [] : read.parked;
    // Only the shown page's words are read (each is a transcript read), once per change.
    const words = wordsNow();
    const asked = new Map(
      await Promise.all(
        questionsOnPage(parked, page).map(async (question) => {
          const id = question.question_id;
          let found = words.get(id);
          if (found === undefined) {
            found = readQuestionWords(questionsHome, id);
            words.set(id, found);
          }
          return [id, await found] as const;
        }),
      ),
    );
    return render(
      context,
      {
        title: 'Questions',
        current: '/questions',
        content: questionsPage(
          read.state === 'unreadable' ? `The questions could not be read: ${read.reason}` : parked,
          csrfToken,
          asked,
          page,
          now(),
        ),
        ...(said === undefined ? {} : { said }),
      },
      status,
    );
  };
  app.get('/questions', (context) => questions(context, board.flash(context)));
  app.post('/questions/:id/answer', async (context) => {
    const body = await board.form(context);
    const answered = await answerParkedQuestion(home, {
      query: context.req.param('id'),
      surface: 'web',
      text: body.answer ?? '',
      env: board.options.env,
    });
    if (isLeft(answered)) return refused(context, questions, answered.left);
    const { line, text } = answered.right;
    const said: Said = { ok: true, lines: [line], words: text };
    return board.done(context, '/questions', said, [homeLayout.questions]);
  });
}
