import { goalText } from '@mecha/appraisal-core';
import { homePorts, sessionReadout } from '@mecha/stores';
import type { Hono } from 'hono';
import { sessionPage } from '../pages/session-page.js';
import { type BoardContext, layoutNote } from './board-context.js';

/** One session: why its label, its errors in words, and the trace of its turns. */
export function sessionRoutes(app: Hono, board: BoardContext): void {
  const { readout, render } = board;
  app.get('/sessions/:id', async (context) => {
    const found = await sessionReadout(readout.ports(), context.req.param('id'));
    if (found.state === 'refused') {
      return render(
        context,
        {
          title: 'Session',
          current: null,
          content: layoutNote('No such session.'),
          said: { ok: false, lines: [found.message] },
        },
        404,
      );
    }
    const sessionId = found.reading.sessionId;
    // The whole transcript, for the trace (the in-memory one keeps only what a reading uses).
    const [transcript, tasks, charterRead, outbox] = await Promise.all([
      homePorts(board.home).sessions.transcript(sessionId),
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
    return render(context, {
      title: `Session ${sessionId}`,
      current: null,
      content: sessionPage(found, readout.row(sessionId), transcript, { goalTitles, rejections }),
    });
  });
}
