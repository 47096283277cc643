import { mintOwnerEdit } from '@mecha/charter/owner';
import { isLeft } from '@mecha/errors';
import { editCharter, homeLayout } from '@mecha/stores';
import type { Context, Hono } from 'hono';
import { type CharterTyped, charterChangeOf, charterPage } from '../pages/charter-page.js';
import type { Said } from '../views/layout.js';
import { type BoardContext, refused, type Status } from './board-context.js';

/** The charter and its edit panel (one `editCharter` per edit). */
export function charterRoutes(app: Hono, board: BoardContext): void {
  const { home, render, csrfToken } = board;
  const page = (context: Context, said?: Said, status: Status = 200, typed?: CharterTyped) => {
    const read = home.readCharter();
    return render(
      context,
      {
        title: 'Charter',
        current: '/charter',
        content: charterPage(
          read.state === 'unreadable' ? read.reason : read.charter,
          csrfToken,
          typed,
        ),
        ...(said === undefined ? {} : { said }),
      },
      status,
    );
  };
  app.get('/charter', (context) => page(context, board.flash(context)));
  app.post('/charter', async (context) => {
    const typed = await board.form(context);
    const change = charterChangeOf(typed);
    if (isLeft(change))
      return page(context, { ok: false, lines: [change.left.message] }, 400, typed);
    const edited = await editCharter(home, {
      capability: mintOwnerEdit('web', board.options.owner),
      env: board.options.env,
      changes: [change.right.change],
    });
    return isLeft(edited)
      ? refused(context, (again, said, status) => page(again, said, status, typed), edited.left)
      : board.done(context, '/charter', { ok: true, lines: [change.right.done] }, [
          homeLayout.charter,
        ]);
  });
}
