import type { GraphOwnerRequest } from '@mecha/distill';
import { couldNotRead, readValue } from '@mecha/errors';
import type { Context, Hono } from 'hono';
import { type GraphAnswer, reviewPage } from '../pages/review-page.js';
import type { Said } from '../views/layout.js';
import type { BoardContext, Status } from './board-context.js';

/** The graph's review queue, through the package's owner use-case (the graph's owner tools). */
export function reviewRoutes(app: Hono, board: BoardContext): void {
  const { options, render, csrfToken } = board;
  const review = async (context: Context, said?: Said, status: Status = 200) => {
    const graph = options.graph;
    const missing = options.graphMissing ?? 'No graph server is configured for this home.';
    const listed = graph === undefined ? missing : await graph.act({ act: 'review', limit: 50 });
    // A graph that could not be read says so on both lists: it is never an empty queue.
    const queue = (name: 'facts' | 'corrections'): GraphAnswer =>
      typeof listed === 'string'
        ? couldNotRead(listed)
        : listed._tag === 'Left'
          ? couldNotRead(listed.left.message)
          : readValue((listed.right.data[name] ?? {}) as Record<string, unknown>);
    return render(
      context,
      {
        title: 'Graph review',
        current: '/review',
        content: reviewPage(queue('facts'), queue('corrections'), csrfToken),
        ...(said === undefined ? {} : { said }),
      },
      status,
    );
  };
  app.get('/review', (context) => review(context, board.flash(context)));
  const graphAct = async (
    context: Context,
    request: GraphOwnerRequest,
    said: (value: Readonly<Record<string, unknown>>) => string,
  ) => {
    if (options.graph === undefined) {
      return review(
        context,
        { ok: false, lines: [options.graphMissing ?? 'No graph server is configured.'] },
        409,
      );
    }
    const result = await options.graph.act(request);
    return result._tag === 'Right'
      ? board.done(context, '/review', { ok: true, lines: [said(result.right.data)] })
      : review(
          context,
          { ok: false, lines: [result.left.message] },
          result.left.kind === 'bad_request' ? 400 : 409,
        );
  };
  app.post('/review/facts/:id', async (context) => {
    const body = await board.form(context);
    const id = Number(context.req.param('id'));
    if (
      !Number.isSafeInteger(id) ||
      id < 1 ||
      (body.decision !== 'accept' && body.decision !== 'reject')
    ) {
      return review(context, { ok: false, lines: ['Approve or Deny a fact from the list.'] }, 400);
    }
    return graphAct(
      context,
      { act: body.decision === 'accept' ? 'approve' : 'deny', id: `f${id}` },
      (value) =>
        body.decision === 'accept'
          ? `Approved fact ${id}: it is a belief now.`
          : `Denied fact ${id}${value.denial_recorded === true ? '; the denial is remembered, so it is never proposed again' : ''}.`,
    );
  });
  app.post('/review/corrections/:id', async (context) => {
    const body = await board.form(context);
    const id = Number(context.req.param('id'));
    const factText = body.fact_id ?? '';
    const factId = factText === '' ? undefined : Number(factText);
    if (
      !Number.isSafeInteger(id) ||
      id < 1 ||
      (factId !== undefined && !(Number.isSafeInteger(factId) && factId >= 1))
    ) {
      return review(context, { ok: false, lines: ['Resolve a correction from the list.'] }, 400);
    }
    return graphAct(
      context,
      factId === undefined
        ? { act: 'deny', id: `c${id}` }
        : { act: 'approve', id: `c${id}`, factId },
      (value) => `Correction ${id}: ${String(value.status ?? 'resolved')}.`,
    );
  });
  app.post('/review/redact', async (context) => {
    const body = await board.form(context);
    const source = (body.source ?? '').trim();
    if (source === '')
      return review(context, { ok: false, lines: ['Name the source to redact.'] }, 400);
    return graphAct(
      context,
      { act: 'redact', source },
      () => `Redacted every episode and correction from ${source}.`,
    );
  });
}
