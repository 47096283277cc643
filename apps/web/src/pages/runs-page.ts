import {
  goalText,
  labelSchema,
  outcomeText,
  reachability,
  stripControl,
  stripControlLines,
  type TextAppraisalRecord,
} from '@mecha/appraisal-core';
import type { HomeReadout, RunRow } from '@mecha/stores';
import { html } from 'hono/html';
import { appraisalChipHtml, taintChipHtml } from '../views/chip.js';
import type { Html } from '../views/layout.js';

/** How many runs a page of the runs list shows. */
export const runsPerPage = 25;

/** The runs page's filters as given in its query, checked. */
export interface RunsQuery {
  readonly page: number;
  readonly days?: number;
  readonly kind?: string;
  readonly label?: string;
}

const kindPattern = /^[a-z][a-z0-9_-]{0,31}$/;

/** Reads the runs page's query; a bad value is a message for the person, never a guess. */
export function parseRunsQuery(
  query: Readonly<Record<string, string | undefined>>,
):
  | { readonly ok: true; readonly query: RunsQuery }
  | { readonly ok: false; readonly message: string } {
  const number = (text: string | undefined, min: number) => {
    if (text === undefined || text === '') return undefined;
    if (!/^\d{1,6}$/.test(text) || Number(text) < min) return null;
    return Number(text);
  };
  const page = number(query.page, 1);
  if (page === null) return { ok: false, message: 'page takes a whole number from 1' };
  const days = number(query.days, 1);
  if (days === null) return { ok: false, message: 'days takes a whole number of days from 1' };
  const kind = query.kind === undefined || query.kind === '' ? undefined : query.kind;
  if (kind !== undefined && !kindPattern.test(kind)) {
    return {
      ok: false,
      message: 'kind takes a recorded surface (web, task, tui, …), test or experiment',
    };
  }
  const label = query.label === undefined || query.label === '' ? undefined : query.label;
  if (label !== undefined && !filterLabels.includes(label)) {
    return {
      ok: false,
      message: `label takes one of ${filterLabels.join(', ')}`,
    };
  }
  return {
    ok: true,
    query: {
      page: page ?? 1,
      ...(days === undefined ? {} : { days }),
      ...(kind === undefined ? {} : { kind }),
      ...(label === undefined ? {} : { label }),
    },
  };
}

/** Keeps the rows a label filter asks for: a label word, or `silent` (nothing signed). */
export function byLabel(rows: readonly RunRow[], label: string | undefined): readonly RunRow[] {
  if (label === undefined) return rows;
  if (label === 'silent')
    return rows.filter((row) => row.state !== 'unreadable' && row.chip === undefined);
  return rows.filter((row) => row.label === label && row.chip !== undefined);
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
<button type="submit">Show</button>
</form>`;
}

function pageLink(query: RunsQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.days !== undefined) params.set('days', String(query.days));
  if (query.kind !== undefined) params.set('kind', query.kind);
  if (query.label !== undefined) params.set('label', query.label);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text === '' ? '/' : `/?${text}`;
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
<nav class="pager" aria-label="Pages of runs">${page > 1 ? html`<a href="${pageLink(query, page - 1)}" rel="prev">Newer</a>` : ''}${page < pages ? html`<a href="${pageLink(query, page + 1)}" rel="next">Older</a>` : ''}</nav>`;
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
