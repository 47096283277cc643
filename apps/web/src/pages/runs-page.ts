import {
  goalText,
  labelSchema,
  outcomeText,
  reachability,
  stripControl,
  stripControlLines,
  type TextAppraisalRecord,
} from '@mecha/appraisal-core';
import { type Either, type Refusal, right } from '@mecha/errors';
import type { HomeReadout, RunRow } from '@mecha/stores';
import { html } from 'hono/html';
import { appraisalChipHtml, taintChipHtml } from '../views/chip.js';
import type { Html } from '../views/layout.js';
import { badRequest } from './bad-request.js';

/** How many runs a page of the runs list shows. */
export const runsPerPage = 25;

/** The runs page's filters as given in its query, checked. */
export interface RunsQuery {
  readonly page: number;
  readonly days?: number;
  readonly kind?: string;
  readonly label?: string;
  /** The order: newest first (the default), oldest first, or by either side of the valence. */
  readonly sort?: RunsSort;
  /** Words to find in the last answer or the title of a task a run worked on. */
  readonly q?: string;
}

/** How the runs list can be ordered; `newest` is the default. */
export const runsSorts = ['newest', 'oldest', 'negative', 'positive'] as const;
/** See {@link runsSorts}. */
export type RunsSort = (typeof runsSorts)[number];

const sortWords: Readonly<Record<RunsSort, string>> = {
  newest: 'newest first',
  oldest: 'oldest first',
  negative: 'most negative first',
  positive: 'most positive first',
};

/** The longest search the runs list takes, in characters. */
export const maxSearch = 200;

const kindPattern = /^[a-z][a-z0-9_-]{0,31}$/;

/** Reads the runs page's query; a bad value is refused with a message for the person, never a guess. */
export function parseRunsQuery(
  query: Readonly<Record<string, string | undefined>>,
): Either<Refusal<'bad_request'>, RunsQuery> {
  const number = (text: string | undefined, min: number) => {
    if (text === undefined || text === '') return undefined;
    if (!/^\d{1,6}$/.test(text) || Number(text) < min) return null;
    return Number(text);
  };
  const page = number(query.page, 1);
  if (page === null) return badRequest('page takes a whole number from 1');
  const days = number(query.days, 1);
  if (days === null) return badRequest('days takes a whole number of days from 1');
  const kind = query.kind === undefined || query.kind === '' ? undefined : query.kind;
  if (kind !== undefined && !kindPattern.test(kind)) {
    return badRequest('kind takes a recorded surface (web, task, tui, …), test or experiment');
  }
  const label = query.label === undefined || query.label === '' ? undefined : query.label;
  if (label !== undefined && !filterLabels.includes(label)) {
    return badRequest(`label takes one of ${filterLabels.join(', ')}`);
  }
  const sort = query.sort === undefined || query.sort === '' ? undefined : query.sort;
  if (sort !== undefined && !(runsSorts as readonly string[]).includes(sort)) {
    return badRequest(`sort takes one of ${runsSorts.join(', ')}`);
  }
  const q = (query.q ?? '').trim();
  if (q.length > maxSearch) {
    return badRequest(`the search takes at most ${maxSearch} characters`);
  }
  return right({
    page: page ?? 1,
    ...(sort === undefined || sort === 'newest' ? {} : { sort: sort as RunsSort }),
    ...(q === '' ? {} : { q }),
    ...(days === undefined ? {} : { days }),
    ...(kind === undefined ? {} : { kind }),
    ...(label === undefined ? {} : { label }),
  });
}

/** Keeps the rows a label filter asks for: a label word, or `silent` (nothing signed). */
export function byLabel(rows: readonly RunRow[], label: string | undefined): readonly RunRow[] {
  if (label === undefined) return rows;
  if (label === 'silent')
    return rows.filter((row) => row.state !== 'unreadable' && row.chip === undefined);
  return rows.filter((row) => row.label === label && row.chip !== undefined);
}

/**
 * Rows in the order asked for. By a side of the valence: the larger first, ties newest first,
 * and rows whose valence is unknown (an unreadable transcript) last, never as 0. Stable.
 */
export function sortRuns(rows: readonly RunRow[], sort: RunsSort | undefined): readonly RunRow[] {
  if (sort === undefined || sort === 'newest') return rows;
  if (sort === 'oldest') return [...rows].reverse();
  const side = sort;
  const position = new Map(rows.map((row, index) => [row.sessionId, index]));
  return [...rows].sort((a, b) => {
    if (a.valence === null || b.valence === null) {
      if (a.valence === b.valence) return 0;
      return a.valence === null ? 1 : -1;
    }
    return (
      b.valence[side] - a.valence[side] ||
      (position.get(a.sessionId) ?? 0) - (position.get(b.sessionId) ?? 0)
    );
  });
}

/** The text a search looks in for a row: its last answer and the titles of its tasks. */
export function searchText(row: RunRow, taskTitles: readonly string[]): string {
  return [row.lastAnswer ?? '', ...taskTitles].join('\n').toLocaleLowerCase('en');
}

/** Keeps the rows whose text holds every word of the search (case ignored). */
export function bySearch(
  rows: readonly RunRow[],
  q: string | undefined,
  textOf: (row: RunRow) => string,
): readonly RunRow[] {
  if (q === undefined) return rows;
  const words = q
    .toLocaleLowerCase('en')
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return rows;
  return rows.filter((row) => {
    const text = textOf(row);
    return words.every((word) => text.includes(word));
  });
}

function when(iso: string | undefined): string {
  return iso === undefined ? 'unknown time' : iso.replace('T', ' ').slice(0, 16);
}

/** One run on the runs page (also what a live update sends): when, where, its answer, its chip. */
export function runRowHtml(row: RunRow): Html {
  const where = [
    row.listing.kind === 'ordinary' ? undefined : row.listing.kind,
    row.listing.surface,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  const runs = row.runs === null ? 'runs unknown' : `${row.runs} run${row.runs === 1 ? '' : 's'}`;
  return html`<li id="run-${row.sessionId}" data-session="${row.sessionId}"${row.chip === undefined ? '' : html` data-has-chip=""`}>
<div class="run__meta"><a href="/sessions/${row.sessionId}">${row.sessionId}</a><br>${when(row.listing.startedAt)} · ${where || 'surface unknown'} · ${runs}</div>
<div class="run__answer">${
    row.state === 'unreadable'
      ? html`<span class="note">The transcript could not be read: ${row.reason ?? 'unknown reason'}</span>`
      : row.lastAnswer === undefined
        ? html`<span class="note">No answer recorded.</span>`
        : row.lastAnswer
  }</div>
${appraisalChipHtml(row.chip)}${taintChipHtml(row.thirdParty)}
</li>`;
}

/** The labels some producer reaches (`reachability`): the only ones worth filtering by. */
export const filterLabels: readonly string[] = [
  'silent',
  ...labelSchema.options.filter((label) =>
    reachability[label].producers.some((producer) => producer !== 'none'),
  ),
];

/** The kinds a filter offers: every surface a session was started from, then test, experiment. */
export function kindsPresent(rows: readonly RunRow[]): readonly string[] {
  const surfaces = new Set<string>();
  const kinds = new Set<string>();
  for (const row of rows) {
    if (row.listing.surface !== undefined) surfaces.add(row.listing.surface);
    if (row.listing.kind !== undefined && row.listing.kind !== 'ordinary')
      kinds.add(row.listing.kind);
  }
  return [...[...surfaces].sort(), ...[...kinds].sort()];
}

function filterForm(query: RunsQuery, kinds: readonly string[]): Html {
  return html`<form class="filters" method="get" action="/" aria-label="Filter runs">
<label>Last days<input name="days" inputmode="numeric" pattern="[0-9]*" size="5" value="${query.days ?? ''}"></label>
<label>Kind or surface<select name="kind"><option value="">any</option>${kinds.map(
    (kind) =>
      html`<option value="${kind}"${query.kind === kind ? html` selected` : ''}>${kind}</option>`,
  )}</select></label>
<label>Label<select name="label"><option value="">any</option>${filterLabels.map(
    (label) =>
      html`<option value="${label}"${query.label === label ? html` selected` : ''}>${label === 'neutral' ? 'neutral (signed, no label word)' : label}</option>`,
  )}</select></label>
<label>Find<input name="q" type="search" maxlength="${maxSearch}" value="${query.q ?? ''}" placeholder="words in the answer or task"></label>
<label>Order<select name="sort">${runsSorts.map(
    (sort) =>
      html`<option value="${sort}"${(query.sort ?? 'newest') === sort ? html` selected` : ''}>${sortWords[sort]}</option>`,
  )}</select></label>
<button type="submit">Show</button>
</form>`;
}

function pageLink(query: RunsQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.days !== undefined) params.set('days', String(query.days));
  if (query.kind !== undefined) params.set('kind', query.kind);
  if (query.label !== undefined) params.set('label', query.label);
  if (query.q !== undefined) params.set('q', query.q);
  if (query.sort !== undefined && query.sort !== 'newest') params.set('sort', query.sort);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text === '' ? '/' : `/?${text}`;
}

/**
 * The page numbers a pager shows: the first, the last, and two either side of the current one,
 * with null where numbers are left out. Nothing when there is one page.
 */
export function pageNumbers(page: number, pages: number): readonly (number | null)[] {
  if (pages <= 1) return [];
  const shown: (number | null)[] = [];
  for (let number = 1; number <= pages; number += 1) {
    if (number === 1 || number === pages || Math.abs(number - page) <= 2) shown.push(number);
    else if (shown[shown.length - 1] !== null) shown.push(null);
  }
  return shown;
}

/** The runs page: newest first, filtered and paginated, each with its answer and chip. */
export function runsPage(
  rows: readonly RunRow[],
  query: RunsQuery,
  listing: ReturnType<HomeReadout['listing']> = 'read',
  kinds: readonly string[] = [],
): Html {
  const pages = Math.max(1, Math.ceil(rows.length / runsPerPage));
  const page = Math.min(query.page, pages);
  const shown = rows.slice((page - 1) * runsPerPage, page * runsPerPage);
  return html`<h1>Runs</h1>
<p class="note">Each session's last answer with mecha's appraisal beside it: the valence first (positive and negative apart, never netted), the label word when the derivation earns one, and nothing for a silent run.</p>
${filterForm(query, kinds)}
${
  typeof listing === 'object'
    ? html`<p class="said said--refused">The sessions could not be listed (${listing.unreadable}): how many there are is unknown, not zero.</p>`
    : html`<p><span id="runs-count" data-count="${rows.length}">${rows.length}</span> session${rows.length === 1 ? '' : 's'}${rows.length > runsPerPage ? `, page ${page} of ${pages}` : ''}${listing === 'partial' ? ' (partial: some transcripts could not be listed; mecha doctor names them)' : ''}.</p>`
}
<ol class="runs" id="runs">${shown.map((row) => runRowHtml(row))}</ol>
${rows.length === 0 && typeof listing !== 'object' ? html`<p id="runs-empty" class="note">No runs in this window.</p>` : ''}
<nav class="pager" aria-label="Pages of runs">${page > 1 ? html`<a href="${pageLink(query, page - 1)}" rel="prev">Previous</a>` : ''}${pageNumbers(
    page,
    pages,
  ).map((number) =>
    number === null
      ? html`<span class="pager__gap" aria-hidden="true">…</span>`
      : number === page
        ? html`<span class="pager__current" aria-current="page">${number}</span>`
        : html`<a href="${pageLink(query, number)}">${number}</a>`,
  )}${page < pages ? html`<a href="${pageLink(query, page + 1)}" rel="next">Next</a>` : ''}</nav>`;
}

/**
 * The parts newer text appraisals carry beside the interpretation: a judgment per goal, what
 * the owner seems to want, and lessons. Each is the model's prose about a session that may have
 * held a stranger's text, so it is stripped of control characters here and escaped by `html`.
 * An older record has none of them, and then nothing is shown.
 */
export function textAppraisalPartsHtml(record: TextAppraisalRecord): Html {
  const judgments = record.judgments ?? [];
  const unresolved = record.judgment_goals_unresolved ?? 0;
  const lessons = record.lessons ?? [];
  return html`${
    judgments.length === 0
      ? ''
      : html`<h3>Judgments</h3>
<ul class="appraisal-parts" id="appraisal-judgments">${judgments.map(
          (judgment) =>
            html`<li><span class="judgment__goal">${goalText(judgment.goal)}</span>: <strong class="judgment__outcome">${outcomeText(judgment.outcome)}</strong> — ${stripControl(judgment.text)}</li>`,
        )}</ul>`
  }${
    unresolved > 0
      ? html`<p class="note">${unresolved} judgment${unresolved === 1 ? '' : 's'} named a goal mecha does not hold (recorded as no goal).</p>`
      : ''
  }${
    record.owner_wants === undefined
      ? ''
      : html`<h3>What the owner seems to want</h3>
<pre id="appraisal-owner-wants">${stripControlLines(record.owner_wants)}</pre>`
  }${
    lessons.length === 0
      ? ''
      : html`<h3>Lessons</h3>
<ul class="appraisal-parts" id="appraisal-lessons">${lessons.map((lesson) => html`<li>${stripControl(lesson)}</li>`)}</ul>`
  }`;
}
