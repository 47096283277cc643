import { goalText } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import { homePorts, sessionReadout } from '@mecha/stores';
import type { Hono } from 'hono';
import { type SessionContext, sessionPage } from '../pages/session-page.js';
import { type BoardContext, keptPerVersion, layoutNote } from './board-context.js';

/** One session: why its label, its errors in words, and the trace of its turns. */
export function sessionRoutes(app: Hono, board: BoardContext): void {
  const { readout, render } = board;
  // Goals' titles and rejections' reasons over every task, charter line and draft: built once
  // per change of the readout, not once per page.
  const lookupsNow = keptPerVersion(readout, async (): Promise<SessionContext> => {
    const [tasks, charterRead, outbox] = await Promise.all([
      board.boardTasks(),
      readout.ports().charter.lines(),
      readout.ports().outbox.read(),
    ]);
    const goalTitles = new Map<string, string>();
    if (tasks.state !== 'unreadable') {
      for (const task of tasks.tasks)
        goalTitles.set(goalText({ kind: 'task', id: task.id }), task.title);
    }
    if (charterRead.state !== 'unreadable') {
      for (const line of charterRead.records) {
        goalTitles.set(goalText({ kind: 'charter', id: line.id }), line.text);
      }
    }
    const rejections = new Map<string, string>();
    if (outbox.state !== 'unreadable') {
      for (const record of outbox.records) {
        if (record.type === 'outcome' && record.reason !== undefined) {
          rejections.set(record.draft_id, record.reason);
        }
      }
    }
    return { goalTitles, rejections };
  });
  app.get('/sessions/:id', async (context) => {
    const found = await sessionReadout(readout.ports(), context.req.param('id'));
    if (isLeft(found)) {
      return render(
        context,
        {
          title: 'Session',
          current: null,
          content: layoutNote('No such session.'),
          said: { ok: false, lines: [found.left.message] },
        },
        404,
      );
    }
    const appraised = found.right;
    const sessionId = appraised.reading.sessionId;
    // The whole transcript, for the trace (the in-memory one keeps only what a reading uses).
    const [transcript, lookups] = await Promise.all([
      homePorts(board.home).sessions.transcript(sessionId),
      lookupsNow(),
    ]);
    return render(context, {
      title: `Session ${sessionId}`,
      current: null,
      content: sessionPage(appraised, readout.row(sessionId), transcript, lookups),
    });
  });
}
