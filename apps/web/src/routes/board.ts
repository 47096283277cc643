import type { TaskStatus } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { homeLayout, moveTask } from '@mecha/stores';
import type { Context, Hono } from 'hono';
import { boardPage, latestClosures, moveSaid, parseBoardQuery } from '../pages/board-page.js';
import type { Said } from '../views/layout.js';
import { type BoardContext, layoutNote, refused, type Status } from './board-context.js';

/** The board: its lists, and Done, Drop and Reopen on a task (each one `moveTask`). */
export function boardRoutes(app: Hono, board: BoardContext): void {
  const { readout, render, csrfToken, now } = board;
  const page = async (context: Context, said?: Said, status: Status = 200) => {
    const parsed = parseBoardQuery(context.req.query());
    if (isLeft(parsed)) {
      return render(
        context,
        {
          title: 'Board',
          current: '/board',
          content: layoutNote('There is no such list on the board.'),
          said: { ok: false, lines: [parsed.left.message] },
        },
        400,
      );
    }
    const [tasks, closures] = await Promise.all([
      board.boardTasks(),
      readout.ports().closures.read(),
    ]);
    const notes: string[] = [];
    if (tasks.state === 'unreadable') notes.push(`The board could not be read: ${tasks.reason}`);
    if (tasks.state === 'partial')
      notes.push('Partial: the board has damaged lines (mecha doctor names them).');
    if (closures.state === 'unreadable')
      notes.push(`The closure record could not be read: ${closures.reason}`);
    return render(
      context,
      {
        title: 'Board',
        current: '/board',
        content: boardPage(
          tasks.state === 'unreadable' ? [] : tasks.tasks,
          closures.state === 'unreadable' ? null : latestClosures(closures.records),
          csrfToken,
          notes,
          parsed.right,
          now(),
        ),
        ...(said === undefined ? {} : { said }),
      },
      status,
    );
  };
  app.get('/board', (context) => page(context, board.flash(context)));

  /**
   * A move asked from the board: the form's `to` must be one of `allowed` (else `refusal`);
   * a reopen carries the owner's reason. Refused, the board is drawn again with why.
   */
  const move =
    (allowed: readonly TaskStatus[], refusal: string, withReason: boolean) =>
    async (context: Context) => {
      const body = await board.form(context);
      const to = allowed.find((status) => status === body.to);
      if (to === undefined) return page(context, { ok: false, lines: [refusal] }, 400);
      const taskId = context.req.param('id') ?? '';
      const reason = withReason ? (body.reason ?? '').trim() : '';
      const moved = await moveTask(board.home, {
        query: taskId,
        to,
        surface: 'web',
        env: board.options.env,
        ...(reason === '' ? {} : { reason }),
      });
      return isLeft(moved)
        ? refused(context, page, moved.left)
        : board.done(
            context,
            '/board',
            moveSaid(moved.right),
            [homeLayout.board, homeLayout.closures],
            taskId,
          );
    };
  app.post(
    '/board/:id/close',
    move(['done', 'dropped'], 'Done or Drop, nothing else, closes a task.', false),
  );
  app.post(
    '/board/:id/reopen',
    move(['inbox', 'next', 'waiting'], 'A task reopens to inbox, next or waiting.', true),
  );
}
