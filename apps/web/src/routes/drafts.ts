import { isLeft } from '@mecha/errors';
import { type DraftChoice, decideDraft, homeLayout } from '@mecha/stores';
import type { Context, Hono } from 'hono';
import { draftsPage, pendingDrafts, sendChoice } from '../pages/drafts-page.js';
import type { Said } from '../views/layout.js';
import {
  type BoardContext,
  badPage,
  keptPerVersion,
  pageOf,
  refused,
  type Status,
} from './board-context.js';

/** Drafts waiting for the owner: their paged list, and Send, Send my edit and Reject. */
export function draftsRoutes(app: Hono, board: BoardContext): void {
  const { home, readout, render, csrfToken, now } = board;
  // The drafts still waiting, derived once per change of the readout.
  const waiting = keptPerVersion(readout, async () => {
    const outbox = await readout.ports().outbox.read();
    return outbox.state === 'unreadable'
      ? outbox
      : { state: outbox.state, drafts: pendingDrafts(outbox.records) };
  });
  const drafts = async (context: Context, said?: Said, status: Status = 200) => {
    const page = pageOf(context);
    if (page === null) return badPage(board, context, 'Drafts', '/drafts');
    const outbox = await waiting();
    return render(
      context,
      {
        title: 'Drafts',
        current: '/drafts',
        content: draftsPage(
          outbox.state === 'unreadable'
            ? `The outbox could not be read: ${outbox.reason}`
            : outbox.drafts,
          csrfToken,
          page,
          now(),
        ),
        ...(said === undefined ? {} : { said }),
      },
      status,
    );
  };
  app.get('/drafts', (context) => drafts(context, board.flash(context)));
  app.post('/drafts/:id', async (context) => {
    const body = await board.form(context);
    const asked = body.verdict;
    if (asked !== 'send' && asked !== 'send_edited' && asked !== 'reject') {
      return drafts(context, { ok: false, lines: ['Send, Send my edit, or Reject.'] }, 400);
    }
    const draftId = context.req.param('id');
    // Send sends the box: as written while it is as shown, the owner's edit once changed.
    let choice: { verdict: DraftChoice; text?: string } =
      asked === 'send_edited' ? { verdict: asked, text: body.text ?? '' } : { verdict: asked };
    if (asked === 'send' && body.text !== undefined) {
      // Read afresh: the draft's words decide what Send means.
      const outbox = await home.outbox.read();
      const draft =
        outbox.state === 'unreadable'
          ? undefined
          : pendingDrafts(outbox.records).find((staged) => staged.draft_id === draftId);
      if (draft !== undefined) choice = sendChoice(body.text, draft.text);
    }
    const reason = (body.reason ?? '').trim();
    const decided = await decideDraft(home, {
      query: draftId,
      verdict: choice.verdict,
      env: board.options.env,
      ...(choice.verdict === 'reject' && reason !== '' ? { reason } : {}),
      // The box's words go with an edit only; the package refuses an empty or unchanged one.
      ...(choice.text === undefined ? {} : { text: choice.text }),
    });
    if (isLeft(decided)) return refused(context, drafts, decided.left);
    const { line, text } = decided.right;
    const said: Said = { ok: true, lines: [line], ...(text === undefined ? {} : { words: text }) };
    return board.done(context, '/drafts', said, [homeLayout.outbox]);
  });
}
