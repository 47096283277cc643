import { randomUUID } from 'node:crypto';
import type { BoardTask } from '@mecha/appraisal-core';
import type { HomeReadout, MechaHome } from '@mecha/stores';
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { WebAppOptions } from '../create-app.js';
import { parkedQuestions, pendingDrafts } from '../pages/drafts-page.js';
import { type Html, layout, type PageOptions, type Said } from '../views/layout.js';

/** The statuses a page answers with. */
export type Status = 200 | 400 | 404 | 409 | 500 | 502;

/** A page drawn again with what an act said (a refusal), at a status. */
export type Redraw = (context: Context, said?: Said, status?: Status) => Promise<Response>;

/** How many acts' messages are kept for the pages they redirect to. */
const maxFlashes = 200;

/** What an act's refusal reason means for the answer's status. */
export function statusOf(kind: string): Status {
  return kind === 'bad_request' ? 400 : 409;
}

/** A short note in a page's body. */
export function layoutNote(text: string): Html {
  return html`<p class="note">${text}</p>`;
}

/** The board's tasks as a page reads them, or why they could not be read. */
export type BoardTasks =
  | {
      readonly state: 'read' | 'partial';
      readonly tasks: readonly BoardTask[];
      readonly skipped: number;
    }
  | { readonly state: 'unreadable'; readonly reason: string };

/**
 * What every route module works with: the app's options, the home and its live readout, and
 * the shared handling of pages and acts (render, form, POST/redirect/GET).
 */
export interface BoardContext {
  readonly options: WebAppOptions;
  readonly home: MechaHome;
  readonly readout: HomeReadout;
  readonly csrfToken: string;
  readonly now: () => Date;
  /** Draws a page in the layout, with the navigation's counts; never cached by the browser. */
  render(context: Context, page: Omit<PageOptions, 'negative'>, status?: Status): Promise<Response>;
  /** The form's string fields. */
  form(context: Context): Promise<Record<string, string>>;
  /**
   * An act that went through: the files it wrote are taken in, then 303 to its page, whose
   * address names what the act said (kept here, the newest few), so a reload never acts twice.
   */
  done(
    context: Context,
    path: string,
    said: Said,
    wrote?: readonly string[],
    task?: string,
  ): Promise<Response>;
  /** What the act that redirected here said, if the address names one still kept. */
  flash(context: Context): Said | undefined;
  /** The board's tasks from the readout's memory (read again when the board file changes). */
  boardTasks(): Promise<BoardTasks>;
}

/** The shared handling every route module uses, over one app's options. */
export function boardContext(options: WebAppOptions): BoardContext {
  const { home, readout, csrfToken } = options;
  const now = options.now ?? (() => new Date());
  const negative = () => {
    const latest = readout.latest === undefined ? undefined : readout.row(readout.latest);
    return latest?.chip?.tone === 'negative';
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
  const flashes = new Map<string, Said>();
  return {
    options,
    home,
    readout,
    csrfToken,
    now,
    async render(context, page, status = 200) {
      context.header('cache-control', 'no-store');
      return context.html(
        layout({ ...page, negative: negative(), waiting: await waiting() }),
        status,
      );
    },
    async form(context) {
      const body = await context.req.parseBody();
      return Object.fromEntries(
        Object.entries(body).flatMap(([key, value]) =>
          typeof value === 'string' ? [[key, value]] : [],
        ),
      );
    },
    async done(context, path, said, wrote = [], task) {
      if (wrote.length > 0) await readout.changed(wrote);
      const id = randomUUID();
      flashes.set(id, said);
      for (const oldest of flashes.keys()) {
        if (flashes.size <= maxFlashes) break;
        flashes.delete(oldest);
      }
      context.header('cache-control', 'no-store');
      const anchor =
        task === undefined
          ? ''
          : `&task=${encodeURIComponent(task)}#task-${encodeURIComponent(task)}`;
      return context.redirect(`${path}?said=${id}${anchor}`, 303);
    },
    flash(context) {
      const id = context.req.query('said');
      return id === undefined ? undefined : flashes.get(id);
    },
    async boardTasks() {
      const read = await readout.ports().board.read();
      if (read.state === 'unreadable') return read;
      return {
        state: read.state,
        tasks: read.records.filter((record): record is BoardTask => record.kind === 'task'),
        skipped: read.state === 'partial' ? read.skipped.length : 0,
      };
    },
  };
}

/**
 * A value derived from the readout, kept until the readout changes (its version moves on):
 * a page asked for again between changes costs nothing to derive.
 */
export function keptPerVersion<T>(readout: HomeReadout, derive: () => T): () => T {
  let kept: { readonly version: number; readonly value: T } | undefined;
  return () => {
    if (kept?.version !== readout.version) kept = { version: readout.version, value: derive() };
    return kept.value;
  };
}

/**
 * A refused act (a `Refusal` of `@mecha/errors`): its page drawn again with the refusal's
 * words, at the status its kind means. The one place a refusal becomes a page.
 */
export function refused(
  context: Context,
  redraw: Redraw,
  refusal: { readonly kind: string; readonly message: string },
): Promise<Response> {
  return redraw(context, { ok: false, lines: [refusal.message] }, statusOf(refusal.kind));
}

/** The page asked for does not exist: a 400 that says what `page` takes. */
export function badPage(
  board: BoardContext,
  context: Context,
  title: string,
  current: '/drafts' | '/questions',
): Promise<Response> {
  return board.render(
    context,
    {
      title,
      current,
      content: layoutNote('There is no such page.'),
      said: { ok: false, lines: ['page takes a whole number from 1'] },
    },
    400,
  );
}

/** The `page` query: a whole number from 1 (1 when absent), or null when it is not one. */
export function pageOf(context: Context): number | null {
  const text = context.req.query('page');
  if (text === undefined || text === '') return 1;
  return /^\d{1,6}$/.test(text) && Number(text) >= 1 ? Number(text) : null;
}
