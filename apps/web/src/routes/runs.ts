import type { PopulationOptions } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import {
  byLabel,
  bySearch,
  kindsPresent,
  parseRunsQuery,
  runRowHtml,
  runsPage,
  searchText,
  sortRuns,
} from '../pages/runs-page.js';
import { type BoardContext, keptPerVersion } from './board-context.js';

/** The kinds and surfaces sessions were started from, kept until the readout changes. */
function kindsKept(board: BoardContext): () => readonly string[] {
  const { readout } = board;
  let kept: { version: number; kinds: readonly string[] } | undefined;
  return () => {
    if (kept?.version !== readout.version) {
      kept = { version: readout.version, kinds: kindsPresent(readout.rows()) };
    }
    return kept.kinds;
  };
}

/**
 * Each session's searchable text (its last answer and the titles of the tasks its runs named
 * as their goal), built when first searched and kept until the readout changes.
 */
function searchTexts(board: BoardContext): () => Promise<ReadonlyMap<string, string>> {
  const { readout } = board;
  return keptPerVersion(readout, async () => {
    const tasks = await board.boardTasks();
    const titles = new Map<string, string>();
    if (tasks.state !== 'unreadable')
      for (const task of tasks.tasks) titles.set(task.id, task.title);
    const ports = readout.ports();
    const texts = new Map<string, string>();
    for (const row of readout.rows()) {
      const transcript = await ports.sessions.transcript(row.sessionId);
      const own = new Set<string>();
      if (transcript.state !== 'unreadable') {
        for (const event of transcript.records) {
          if (event.type !== 'run_start' || event.goal?.kind !== 'task') continue;
          const title = event.goal.id === undefined ? undefined : titles.get(event.goal.id);
          if (title !== undefined) own.add(title);
        }
      }
      texts.set(row.sessionId, searchText(row, [...own]));
    }
    return texts;
  });
}

/** The runs page: the query checked, then the rows it asks for, filtered, searched and sorted. */
async function runsHome(
  context: Context,
  board: BoardContext,
  kinds: () => readonly string[],
  searchable: () => Promise<ReadonlyMap<string, string>>,
): Promise<Response> {
  const { readout, now, render } = board;
  const parsed = parseRunsQuery(context.req.query());
  const present = kinds();
  const refusal = isLeft(parsed)
    ? parsed.left.message
    : parsed.right.kind !== undefined && !present.includes(parsed.right.kind)
      ? `no session was started from ${JSON.stringify(parsed.right.kind)}: kinds present are ${present.join(', ') || 'none'}`
      : undefined;
  if (isLeft(parsed) || refusal !== undefined) {
    return render(
      context,
      {
        title: 'Runs',
        current: '/',
        content: runsPage([], { page: 1 }, 'read', present),
        said: { ok: false, lines: [refusal ?? ''] },
      },
      400,
    );
  }
  const query = parsed.right;
  const population: PopulationOptions = {
    now: now(),
    ...(query.days === undefined ? {} : { days: query.days }),
    ...(query.kind === undefined ? {} : { kind: query.kind }),
  };
  const labelled = byLabel(readout.population(population), query.label);
  const texts = query.q === undefined ? undefined : await searchable();
  const rows = sortRuns(
    bySearch(labelled, query.q, (row) => texts?.get(row.sessionId) ?? ''),
    query.sort,
  );
  // New runs arrive at the top of the plain list only: newest first, nothing filtered.
  const filtered =
    query.days !== undefined ||
    query.kind !== undefined ||
    query.label !== undefined ||
    query.q !== undefined ||
    query.sort !== undefined;
  return render(context, {
    title: 'Runs',
    current: '/',
    content: runsPage(rows, query, readout.listing(), present),
    live: 'runs',
    liveInsert: !filtered && query.page === 1,
  });
}

/** Live: one event per run that finished with something signed; nothing for a silent one. */
function runEvents(context: Context, board: BoardContext): Response {
  const { readout } = board;
  return streamSSE(context, async (stream) => {
    const closing = board.options.closing;
    let open = true;
    const queue: string[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = readout.subscribe((change) => {
      for (const sessionId of change.finished) {
        if (readout.row(sessionId)?.chip !== undefined) queue.push(sessionId);
      }
      wake?.();
    });
    const stop = () => {
      open = false;
      wake?.();
    };
    stream.onAbort(stop);
    closing?.addEventListener('abort', stop, { once: true });
    await stream.writeSSE({ event: 'hello', data: JSON.stringify({ version: readout.version }) });
    try {
      while (open && !closing?.aborted) {
        const sessionId = queue.shift();
        if (sessionId === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            // A comment now and then keeps proxies from closing an idle stream.
            const timer = setTimeout(resolve, 25_000);
            timer.unref();
          });
          wake = undefined;
          if (open && queue.length === 0) await stream.write(': keep-alive\n\n');
          continue;
        }
        const row = readout.row(sessionId);
        if (row?.chip === undefined) continue;
        await stream.writeSSE({
          event: 'run',
          id: `${readout.version}-${sessionId}`,
          data: JSON.stringify({
            session: sessionId,
            html: await runRowHtml(row).toString(),
            tone: row.chip.tone,
            version: readout.version,
          }),
        });
      }
    } finally {
      unsubscribe();
      closing?.removeEventListener('abort', stop);
    }
  });
}

/** Runs, the home page, and its live stream of runs that finished with something signed. */
export function runsRoutes(app: Hono, board: BoardContext): void {
  const kinds = kindsKept(board);
  const searchable = searchTexts(board);
  app.get('/', (context) => runsHome(context, board, kinds, searchable));
  app.get('/events', (context) => runEvents(context, board));
}
