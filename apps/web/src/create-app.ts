import { randomUUID } from 'node:crypto';
import { type BoardTask, goalText, type PopulationOptions, successes } from '@mecha/appraisal-core';
import { mintOwnerEdit } from '@mecha/charter/owner';
import type { GraphOwnerRequest, GraphOwnerSession } from '@mecha/distill';
import {
  answerParkedQuestion,
  type DraftChoice,
  decideDraft,
  editCharter,
  type HomeReadout,
  homeLayout,
  homePorts,
  type MechaHome,
  moveTask,
  readQuestionWords,
  sessionReadout,
} from '@mecha/stores';
import { type Context, Hono } from 'hono';
import { html } from 'hono/html';
import { streamSSE } from 'hono/streaming';
import { appraisalElement, boardClient } from './client/board-client.js';
import { boardPage, latestClosures, moveSaid, parseBoardQuery } from './pages/board-page.js';
import { type CharterTyped, charterChangeOf, charterPage } from './pages/charter-page.js';
import { corpusDays, corpusPage, successesPage } from './pages/corpus-page.js';
import {
  draftsPage,
  parkedQuestions,
  pendingDrafts,
  questionsOnPage,
  questionsPage,
  sendChoice,
} from './pages/drafts-page.js';
import { type GraphAnswer, reviewPage } from './pages/review-page.js';
import { byLabel, kindsPresent, parseRunsQuery, runRowHtml, runsPage } from './pages/runs-page.js';
import { sessionPage } from './pages/session-page.js';
import { guard, securityHeaders } from './security/guard.js';
import { boardStyle } from './views/board-style.js';
import { type Html, layout, type PageOptions, type Said } from './views/layout.js';

/** Everything the board's routes work with. */
export interface WebAppOptions {
  readonly version: string;
  readonly home: MechaHome;
  readonly readout: HomeReadout;
  /** The token every form carries; see `guard`. */
  readonly csrfToken: string;
  /** Host names allowed besides loopback ones (the `--host` given). */
  readonly allowedHosts?: readonly string[];
  /** When set, every request must present it (served off loopback). */
  readonly bearerToken?: string;
  /** The environment acts are taken in: a run's registration there makes them a run's. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Who the owner is, recorded on charter edits. */
  readonly owner: string;
  /** The owner's side of the graph (@mecha/distill's use-case), when a graph server is configured. */
  readonly graph?: GraphOwnerSession;
  /** Why there is no graph review, when there is none. */
  readonly graphMissing?: string;
  /** The moment readouts are taken (a fixed one reproduces a page); the clock by default. */
  readonly now?: () => Date;
  /** Aborted when the server shuts down: live streams end. */
  readonly closing?: AbortSignal;
}

type Status = 200 | 400 | 404 | 409 | 500 | 502;

/** How many acts' messages are kept for the pages they redirect to. */
const maxFlashes = 200;

const script = `(${boardClient.toString()})();\n`;
const elementScript = `(${appraisalElement.toString()})();\n`;

/** What an act's refusal reason means for the answer's status. */
function statusOf(reason: string): Status {
  return reason === 'bad_request' ? 400 : 409;
}

/**
 * The board's HTTP app. Thin: every page reads through a package use-case (or the in-memory
 * readout built from them) and renders; every act is one owner operation of `@mecha/stores`.
 */
export function createApp(options: WebAppOptions): Hono {
  const { home, readout, csrfToken } = options;
  const now = options.now ?? (() => new Date());
  const app = new Hono();
  app.use('*', securityHeaders());
  app.use(
    '*',
    guard({
      allowedHosts: options.allowedHosts ?? [],
      csrfToken,
      ...(options.bearerToken === undefined ? {} : { bearerToken: options.bearerToken }),
    }),
  );

  const negative = () => {
    const latest = readout.latest === undefined ? undefined : readout.row(readout.latest);
    return latest?.chip?.tone === 'negative';
  };
  const render = async (
    context: Context,
    page: Omit<PageOptions, 'negative'>,
    status: Status = 200,
  ) => {
    context.header('cache-control', 'no-store');
    return context.html(
      layout({ ...page, negative: negative(), waiting: await waiting() }),
      status,
    );
  };
  // The navigation's counts of drafts and questions waiting, kept until the readout changes.
  let waitingCounts:
    | { readonly version: number; readonly counts: NonNullable<PageOptions['waiting']> }
    | undefined;
  const waiting = async (): Promise<NonNullable<PageOptions['waiting']>> => {
    if (waitingCounts?.version === readout.version) return waitingCounts.counts;
    const version = readout.version;
    const [outbox, questions] = await Promise.all([
      readout.ports().outbox.read(),
      readout.ports().questions.read(),
    ]);
    const counts = {
      drafts: outbox.state === 'unreadable' ? null : pendingDrafts(outbox.records).length,
      questions:
        questions.state === 'unreadable' ? null : parkedQuestions(questions.records).length,
    };
    waitingCounts = { version, counts };
    return counts;
  };
  const form = async (context: Context): Promise<Record<string, string>> => {
    const body = await context.req.parseBody();
    return Object.fromEntries(
      Object.entries(body).flatMap(([key, value]) =>
        typeof value === 'string' ? [[key, value]] : [],
      ),
    );
  };

  // POST, redirect, GET: an act that went through answers 303 to its page, whose address then
  // names what the act said (kept here, the newest few), so a reload never acts twice.
  const flashes = new Map<string, Said>();
  const done = async (
    context: Context,
    path: string,
    said: Said,
    /** The home's files the act wrote: taken in before the page is drawn again. */
    wrote: readonly string[] = [],
    /** The board task the act moved, shown open on the page. */
    task?: string,
  ) => {
    if (wrote.length > 0) await readout.changed(wrote);
    const id = randomUUID();
    flashes.set(id, said);
    for (const oldest of flashes.keys()) {
      if (flashes.size <= maxFlashes) break;
      flashes.delete(oldest);
    }
    context.header('cache-control', 'no-store');
    return context.redirect(
      `${path}?said=${id}${task === undefined ? '' : `&task=${encodeURIComponent(task)}#task-${encodeURIComponent(task)}`}`,
      303,
    );
  };
  const flash = (context: Context): Said | undefined => {
    const id = context.req.query('said');
    return id === undefined ? undefined : flashes.get(id);
  };

  app.get('/healthz', (context) =>
    context.json({ ok: true, service: 'mecha-web', version: options.version }),
  );
  app.get('/assets/board.css', (context) => {
    context.header('content-type', 'text/css; charset=utf-8');
    context.header('cache-control', 'no-cache');
    return context.body(boardStyle);
  });
  app.get('/assets/board.js', (context) => {
    context.header('content-type', 'text/javascript; charset=utf-8');
    context.header('cache-control', 'no-cache');
    return context.body(script);
  });
  app.get('/assets/mecha-appraisal.js', (context) => {
    context.header('content-type', 'text/javascript; charset=utf-8');
    context.header('cache-control', 'no-cache');
    // A harness's own chat page (another origin) may include this one script.
    context.header('cross-origin-resource-policy', 'cross-origin');
    context.header('access-control-allow-origin', '*');
    return context.body(elementScript);
  });

  // The board's tasks from the readout's memory (read again when the board file changes).
  const boardTasks = async (): Promise<
    | {
        readonly state: 'read' | 'partial';
        readonly tasks: readonly BoardTask[];
        readonly skipped: number;
      }
    | { readonly state: 'unreadable'; readonly reason: string }
  > => {
    const read = await readout.ports().board.read();
    if (read.state === 'unreadable') return read;
    return {
      state: read.state,
      tasks: read.records.filter((record): record is BoardTask => record.kind === 'task'),
      skipped: read.state === 'partial' ? read.skipped.length : 0,
    };
  };
  // A home whose questions are read from the readout's memory: a question's words are looked up
  // per question, and each lookup would otherwise read the whole questions store again.
  const questionsHome: MechaHome = {
    ...home,
    questions: { ...home.questions, read: () => readout.ports().questions.read() },
  };
  // The successes readout, kept until the readout changes.
  let successesKept: { version: number; read: ReturnType<typeof successes> } | undefined;

  // Runs: the home page.
  // The kinds and surfaces sessions were started from, kept until the readout changes.
  let kindsKept: { version: number; kinds: readonly string[] } | undefined;
  const kinds = () => {
    if (kindsKept?.version !== readout.version) {
      kindsKept = { version: readout.version, kinds: kindsPresent(readout.rows()) };
    }
    return kindsKept.kinds;
  };
  app.get('/', (context) => {
    const parsed = parseRunsQuery(context.req.query());
    const present = kinds();
    const refused = !parsed.ok
      ? parsed.message
      : parsed.query.kind !== undefined && !present.includes(parsed.query.kind)
        ? `no session was started from ${JSON.stringify(parsed.query.kind)}: kinds present are ${present.join(', ') || 'none'}`
        : undefined;
    if (!parsed.ok || refused !== undefined) {
      return render(
        context,
        {
          title: 'Runs',
          current: '/',
          content: runsPage([], { page: 1 }, 'read', present),
          said: { ok: false, lines: [refused ?? ''] },
        },
        400,
      );
    }
    const query = parsed.query;
    const population: PopulationOptions = {
      now: now(),
      ...(query.days === undefined ? {} : { days: query.days }),
      ...(query.kind === undefined ? {} : { kind: query.kind }),
    };
    const rows = byLabel(readout.population(population), query.label);
    const filtered =
      query.days !== undefined || query.kind !== undefined || query.label !== undefined;
    return render(context, {
      title: 'Runs',
      current: '/',
      content: runsPage(rows, query, readout.listing(), present),
      live: 'runs',
      liveInsert: !filtered && query.page === 1,
    });
  });

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
      homePorts(home).sessions.transcript(sessionId),
      boardTasks(),
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

  // Live: one event per run that finished with something signed; nothing for a silent one.
  app.get('/events', (context) =>
    streamSSE(context, async (stream) => {
      let open = true;
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = readout.subscribe((change) => {
        for (const sessionId of change.finished) {
          const row = readout.row(sessionId);
          if (row?.chip === undefined) continue;
          queue.push(sessionId);
        }
        wake?.();
      });
      const stop = () => {
        open = false;
        wake?.();
      };
      stream.onAbort(stop);
      options.closing?.addEventListener('abort', stop, { once: true });
      await stream.writeSSE({ event: 'hello', data: JSON.stringify({ version: readout.version }) });
      try {
        while (open && !options.closing?.aborted) {
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
        options.closing?.removeEventListener('abort', stop);
      }
    }),
  );

  // Board.
  const board = async (context: Context, said?: Said, status: Status = 200) => {
    const parsed = parseBoardQuery(context.req.query());
    if (!parsed.ok) {
      return render(
        context,
        {
          title: 'Board',
          current: '/board',
          content: layoutNote('There is no such list on the board.'),
          said: { ok: false, lines: [parsed.message] },
        },
        400,
      );
    }
    const [tasks, closures] = await Promise.all([boardTasks(), readout.ports().closures.read()]);
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
          parsed.query,
          now(),
        ),
        ...(said === undefined ? {} : { said }),
      },
      status,
    );
  };
  app.get('/board', (context) => board(context, flash(context)));
  app.post('/board/:id/close', async (context) => {
    const body = await form(context);
    const to = body.to;
    if (to !== 'done' && to !== 'dropped') {
      return board(
        context,
        { ok: false, lines: ['Done or Drop, nothing else, closes a task.'] },
        400,
      );
    }
    const moved = await moveTask(home, {
      query: context.req.param('id'),
      to,
      surface: 'web',
      env: options.env,
    });
    return moved.state === 'refused'
      ? board(context, moveSaid(moved), statusOf(moved.reason))
      : done(
          context,
          '/board',
          moveSaid(moved),
          [homeLayout.board, homeLayout.closures],
          context.req.param('id'),
        );
  });
  app.post('/board/:id/reopen', async (context) => {
    const body = await form(context);
    const to = body.to;
    if (to !== 'inbox' && to !== 'next' && to !== 'waiting') {
      return board(
        context,
        { ok: false, lines: ['A task reopens to inbox, next or waiting.'] },
        400,
      );
    }
    const reason = (body.reason ?? '').trim();
    const moved = await moveTask(home, {
      query: context.req.param('id'),
      to,
      surface: 'web',
      env: options.env,
      ...(reason === '' ? {} : { reason }),
    });
    return moved.state === 'refused'
      ? board(context, moveSaid(moved), statusOf(moved.reason))
      : done(
          context,
          '/board',
          moveSaid(moved),
          [homeLayout.board, homeLayout.closures],
          context.req.param('id'),
        );
  });

  // Drafts and questions.
  const pageOf = (context: Context): number | null => {
    const text = context.req.query('page');
    if (text === undefined || text === '') return 1;
    return /^\d{1,6}$/.test(text) && Number(text) >= 1 ? Number(text) : null;
  };
  const badPage = (context: Context, title: string, current: '/drafts' | '/questions') =>
    render(
      context,
      {
        title,
        current,
        content: layoutNote('There is no such page.'),
        said: { ok: false, lines: ['page takes a whole number from 1'] },
      },
      400,
    );
  const drafts = async (context: Context, said?: Said, status: Status = 200) => {
    const page = pageOf(context);
    if (page === null) return badPage(context, 'Drafts', '/drafts');
    const outbox = await readout.ports().outbox.read();
    return render(
      context,
      {
        title: 'Drafts',
        current: '/drafts',
        content: draftsPage(
          outbox.state === 'unreadable'
            ? `The outbox could not be read: ${outbox.reason}`
            : pendingDrafts(outbox.records),
          csrfToken,
          page,
          now(),
        ),
        ...(said === undefined ? {} : { said }),
      },
      status,
    );
  };
  const questionsList = async (context: Context, said?: Said, status: Status = 200) => {
    const page = pageOf(context);
    if (page === null) return badPage(context, 'Questions', '/questions');
    const questions = await readout.ports().questions.read();
    const parked = questions.state === 'unreadable' ? [] : parkedQuestions(questions.records);
    // Only the shown page's words are read: each is a transcript read.
    const asked = new Map(
      await Promise.all(
        questionsOnPage(parked, page).map(
          async (question) =>
            [
              question.question_id,
              await readQuestionWords(questionsHome, question.question_id),
            ] as const,
        ),
      ),
    );
    return render(
      context,
      {
        title: 'Questions',
        current: '/questions',
        content: questionsPage(
          questions.state === 'unreadable'
            ? `The questions could not be read: ${questions.reason}`
            : parked,
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
  app.get('/questions', (context) => questionsList(context, flash(context)));
  app.get('/drafts', (context) => drafts(context, flash(context)));
  app.post('/drafts/:id', async (context) => {
    const body = await form(context);
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
      env: options.env,
      ...(choice.verdict === 'reject' && reason !== '' ? { reason } : {}),
      // The box's words go with an edit only; the package refuses an empty or unchanged one.
      ...(choice.text === undefined ? {} : { text: choice.text }),
    });
    return decided.state === 'refused'
      ? drafts(context, { ok: false, lines: [decided.message] }, statusOf(decided.reason))
      : done(
          context,
          '/drafts',
          {
            ok: true,
            lines: [decided.line],
            ...(decided.text === undefined ? {} : { words: decided.text }),
          },
          [homeLayout.outbox],
        );
  });
  app.post('/questions/:id/answer', async (context) => {
    const body = await form(context);
    const answered = await answerParkedQuestion(home, {
      query: context.req.param('id'),
      surface: 'web',
      text: body.answer ?? '',
      env: options.env,
    });
    return answered.state === 'refused'
      ? questionsList(context, { ok: false, lines: [answered.message] }, statusOf(answered.reason))
      : done(context, '/questions', { ok: true, lines: [answered.line], words: answered.text }, [
          homeLayout.questions,
        ]);
  });

  // Charter.
  const charter = (context: Context, said?: Said, status: Status = 200, typed?: CharterTyped) => {
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
  app.get('/charter', (context) => charter(context, flash(context)));
  app.post('/charter', async (context) => {
    const typed = await form(context);
    const change = charterChangeOf(typed);
    if (!change.ok) return charter(context, { ok: false, lines: [change.message] }, 400, typed);
    const edited = await editCharter(home, {
      capability: mintOwnerEdit('web', options.owner),
      env: options.env,
      changes: [change.change],
    });
    return edited.state === 'refused'
      ? charter(context, { ok: false, lines: [edited.message] }, statusOf(edited.reason), typed)
      : done(context, '/charter', { ok: true, lines: [change.done] }, [homeLayout.charter]);
  });

  // Corpus and successes: the core's readouts over the in-memory readout.
  app.get('/corpus', async (context) => {
    const daysText = context.req.query('days');
    const days =
      daysText === undefined || daysText === ''
        ? undefined
        : /^\d{1,6}$/.test(daysText) && Number(daysText) >= 1
          ? Number(daysText)
          : null;
    if (days === null) {
      return render(
        context,
        {
          title: 'Corpus',
          current: '/corpus',
          content: layoutNote('Give days as a whole number from 1.'),
          said: { ok: false, lines: ['days takes a whole number of days from 1'] },
        },
        400,
      );
    }
    const population: PopulationOptions = { now: now(), ...(days === undefined ? {} : { days }) };
    const { corpus, notReadWhole } = await readout.corpusRead(population);
    return render(context, {
      title: 'Corpus',
      current: '/corpus',
      content: corpusPage(
        corpus,
        corpusDays(readout.population(population)),
        days === undefined ? 'Every session' : `Sessions begun in the last ${days} days`,
        notReadWhole,
      ),
    });
  });
  app.get('/successes', async (context) => {
    if (successesKept?.version !== readout.version) {
      successesKept = {
        version: readout.version,
        read: successes(readout.ports(), { includeTests: false }),
      };
    }
    const readoutOfSuccesses = await successesKept.read;
    return render(context, {
      title: 'Successes',
      current: '/successes',
      content: successesPage(readoutOfSuccesses),
    });
  });

  // The graph's review queue, through the package's owner use-case (the graph's owner tools).
  const review = async (context: Context, said?: Said, status: Status = 200) => {
    const graph = options.graph;
    const missing = options.graphMissing ?? 'No graph server is configured for this home.';
    const listed = graph === undefined ? missing : await graph.act({ act: 'review', limit: 50 });
    // A graph that could not be read says so on both lists: it is never an empty queue.
    const queue = (name: 'facts' | 'corrections'): GraphAnswer =>
      typeof listed === 'string'
        ? { ok: false, reason: listed }
        : listed.state === 'refused'
          ? { ok: false, reason: listed.message }
          : { ok: true, value: (listed.data[name] ?? {}) as Record<string, unknown> };
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
  app.get('/review', (context) => review(context, flash(context)));
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
    return result.state === 'done'
      ? done(context, '/review', { ok: true, lines: [said(result.data)] })
      : review(
          context,
          { ok: false, lines: [result.message] },
          result.reason === 'bad_request' ? 400 : 409,
        );
  };
  app.post('/review/facts/:id', async (context) => {
    const body = await form(context);
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
    const body = await form(context);
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
    const body = await form(context);
    const source = (body.source ?? '').trim();
    if (source === '')
      return review(context, { ok: false, lines: ['Name the source to redact.'] }, 400);
    return graphAct(
      context,
      { act: 'redact', source },
      () => `Redacted every episode and correction from ${source}.`,
    );
  });

  app.notFound((context) =>
    render(
      context,
      { title: 'Not found', current: null, content: layoutNote('There is no such page.') },
      404,
    ),
  );
  app.onError((error, context) => {
    process.stderr.write(
      `mecha web: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return render(
      context,
      {
        title: 'Error',
        current: null,
        content: layoutNote(
          'Something failed inside the board (its log says what); reload the page to see what stands.',
        ),
      },
      500,
    );
  });
  return app;
}

function layoutNote(text: string): Html {
  return html`<p class="note">${text}</p>`;
}
