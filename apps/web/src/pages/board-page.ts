import type { BoardTask, ClosureRecord, TaskStatus } from '@mecha/appraisal-core';
import { type Either, type Refusal, right } from '@mecha/errors';
import type { TaskMove } from '@mecha/stores';
import { html } from 'hono/html';
import { csrfField, type Html, type Said } from '../views/layout.js';
import { pagerHtml } from '../views/pager.js';
import { badRequest } from './bad-request.js';

const order: readonly TaskStatus[] = ['inbox', 'next', 'waiting', 'done', 'dropped'];

/** The latest closure or reopen of each task, from the closure record. */
export function latestClosures(
  records: readonly ClosureRecord[],
): ReadonlyMap<string, ClosureRecord> {
  const latest = new Map<string, ClosureRecord>();
  for (const record of records) latest.set(record.task_id, record);
  return latest;
}

/** Where a reopened task goes unless the owner says otherwise: where it was closed from. */
export function reopenDefault(closure: ClosureRecord | undefined): 'inbox' | 'next' | 'waiting' {
  const from = closure?.reopens === undefined ? closure?.from : undefined;
  return from === 'inbox' || from === 'waiting' ? from : 'next';
}

/** Whether an open task is past its due date (a date is due by the end of its day, UTC). */
export function isOverdue(task: BoardTask, now: Date): boolean {
  if (task.due === undefined || task.status === 'done' || task.status === 'dropped') return false;
  const due =
    task.due.length === 10 ? Date.parse(`${task.due}T23:59:59.999Z`) : Date.parse(task.due);
  return Number.isFinite(due) && due < now.getTime();
}

function taskHtml(
  task: BoardTask,
  closure: ClosureRecord | undefined,
  csrf: string,
  now: Date,
): Html {
  const closed = task.status === 'done' || task.status === 'dropped';
  const back = reopenDefault(closure);
  const overdue = isOverdue(task, now);
  return html`<li id="task-${task.id}" data-task="${task.id}" data-status="${task.status}"${overdue ? html` data-overdue=""` : ''}>
<div class="run__meta">${task.id}<br><span class="status">${task.status}</span>${task.project_id === undefined ? '' : html` · ${task.project_id}`}${task.due === undefined ? '' : html` · due ${task.due}`}${overdue ? html` <span class="flag">overdue</span>` : ''}</div>
<div class="run__answer">${task.title}</div>
<div class="acts">${
    closed
      ? html`<form method="post" action="/board/${task.id}/reopen" aria-label="Reopen ${task.id}">${csrfField(csrf)}
<label>Back to<select name="to">${reopenTargets.map((target) => html`<option value="${target}"${target === back ? html` selected` : ''}>${target}</option>`)}</select></label>
<label>Reason<input name="reason" size="24" maxlength="4000"></label>
<button type="submit" data-key="o" aria-keyshortcuts="o">Reopen</button></form>`
      : html`<form method="post" action="/board/${task.id}/close" aria-label="Close ${task.id}">${csrfField(csrf)}<input type="hidden" name="from" value="${task.status}"><button type="submit" name="to" value="done" data-key="d" aria-keyshortcuts="d">Done</button> <button type="submit" name="to" value="dropped" data-key="x" aria-keyshortcuts="x">Drop</button></form>`
  }</div>
${
  closure === undefined
    ? ''
    : html`<p class="closure" data-closure="${closure.closure_id}">${closure.reopens === undefined ? `Closed ${closure.from} → ${closure.to}` : `Reopened ${closure.from} → ${closure.to}`} on ${closure.surface} (closure ${closure.closure_id})${closure.appraisal_line === undefined ? '' : html`: <span class="closure__line">${closure.appraisal_line}</span>`}${closure.reason === undefined ? '' : html` · reason: ${closure.reason}`}</p>`
}
</li>`;
}

const reopenTargets = ['inbox', 'next', 'waiting'] as const;

/** Tasks of one status shown on the board's overview before "all N". */
export const tasksPerSection = 20;
/** Tasks of one status to a page when that status is listed alone. */
export const tasksPerPage = 50;

/** The board's query: one status listed alone and its page, or the overview. */
export interface BoardQuery {
  readonly status?: TaskStatus;
  readonly page: number;
  /** The task an act just moved: shown wherever it now is, its section open. */
  readonly task?: string;
}

/** Reads the board's query; a bad value is refused with a message for the person. */
export function parseBoardQuery(
  query: Readonly<Record<string, string | undefined>>,
): Either<Refusal<'bad_request'>, BoardQuery> {
  const status = query.status === undefined || query.status === '' ? undefined : query.status;
  if (status !== undefined && !order.includes(status as TaskStatus)) {
    return badRequest(`status takes one of ${order.join(', ')}`);
  }
  const pageText = query.page;
  if (
    pageText !== undefined &&
    pageText !== '' &&
    !(/^\d{1,6}$/.test(pageText) && Number(pageText) >= 1)
  ) {
    return badRequest('page takes a whole number from 1');
  }
  const task = query.task === undefined || query.task === '' ? undefined : query.task;
  return right({
    page: pageText === undefined || pageText === '' ? 1 : Number(pageText),
    ...(status === undefined ? {} : { status: status as TaskStatus }),
    ...(task === undefined ? {} : { task }),
  });
}

function statusLink(status: TaskStatus, page = 1): string {
  return `/board?status=${status}${page > 1 ? `&page=${page}` : ''}`;
}

/** The board: tasks by status, with Done and Drop, and Reopen with a reason. */
export function boardPage(
  tasks: readonly BoardTask[],
  closures: ReadonlyMap<string, ClosureRecord> | null,
  csrf: string,
  notes: readonly string[],
  query: BoardQuery = { page: 1 },
  now: Date = new Date(),
): Html {
  const byStatus = new Map(
    order.map((status) => [status, tasks.filter((task) => task.status === status)]),
  );
  const rowsOf = (rows: readonly BoardTask[]) =>
    html`<ul class="items">${rows.map((task) => taskHtml(task, closures?.get(task.id), csrf, now))}</ul>`;
  const intro = html`<h1>Board</h1>
<p class="note">Done and Drop close a task through mecha's one closure path: the closure is recorded first (with mecha's appraisal line), then the board changes. A task closed elsewhere since this page was drawn changes nothing.</p>
${notes.map((note) => html`<p class="note">${note}</p>`)}
<nav class="tabs" aria-label="Statuses"><ul>${order.map((status) => html`<li><a href="${statusLink(status)}"${query.status === status ? html` aria-current="page"` : ''}>${status} (${(byStatus.get(status) ?? []).length})</a></li>`)}</ul></nav>`;
  if (query.status !== undefined) {
    const rows = byStatus.get(query.status) ?? [];
    // Closed tasks newest first; open ones in the board's order.
    const listed =
      query.status === 'done' || query.status === 'dropped' ? [...rows].reverse() : rows;
    const pages = Math.max(1, Math.ceil(listed.length / tasksPerPage));
    const page = Math.min(query.page, pages);
    return html`${intro}
<h2 id="status-${query.status}">${query.status} <span class="note">(${rows.length}${pages > 1 ? `, page ${page} of ${pages}` : ''})</span></h2>
${rows.length === 0 ? html`<p class="note">None.</p>` : rowsOf(listed.slice((page - 1) * tasksPerPage, page * tasksPerPage))}
${pagerHtml('Pages of tasks', page, pages, (to) => statusLink(query.status as TaskStatus, to))}
<p><a href="/board">The whole board</a></p>`;
  }
  const overdue = tasks.filter((task) => isOverdue(task, now)).length;
  return html`${intro}
${overdue === 0 ? '' : html`<p class="flag-line"><span class="flag">overdue</span> ${overdue} open task${overdue === 1 ? ' is' : 's are'} past ${overdue === 1 ? 'its' : 'their'} due date.</p>`}
${order.map((status) => {
  const rows = byStatus.get(status) ?? [];
  const closed = status === 'done' || status === 'dropped';
  const first = closed
    ? [...rows].reverse().slice(0, tasksPerSection)
    : rows.slice(0, tasksPerSection);
  // The task an act just moved is shown in its section, which is open.
  const focused = rows.find((task) => task.id === query.task);
  const shown = focused === undefined || first.includes(focused) ? first : [focused, ...first];
  const more =
    rows.length > shown.length
      ? html`<p><a href="${statusLink(status)}">All ${rows.length} ${status} tasks</a></p>`
      : '';
  if (closed) {
    // Closed tasks are collapsed: the newest few a click away, the rest on their own pages.
    return html`<details class="closed" id="status-${status}"${focused === undefined ? '' : html` open`}><summary><h2>${status} <span class="note">(${rows.length}${rows.length > shown.length ? `; the newest ${shown.length} here` : ''})</span></h2></summary>
${rows.length === 0 ? html`<p class="note">None.</p>` : rowsOf(shown)}${more}</details>`;
  }
  return html`<h2 id="status-${status}">${status} <span class="note">(${rows.length})</span></h2>
${rows.length === 0 ? html`<p class="note">None.</p>` : rowsOf(shown)}${more}`;
})}`;
}

/** What a move from the board came to, as lines to show above it. */
export function moveSaid(move: TaskMove): Said {
  switch (move.state) {
    case 'moved':
    case 'refiled':
      return { ok: true, lines: [move.line] };
    case 'closed': {
      const lines = [move.closureLine];
      if (move.closure.appraisal_line !== undefined) lines.push(move.closure.appraisal_line);
      if (move.followUp.state === 'staged') {
        lines.push(
          `Staged one follow-up: ${move.followUp.taskId} "${move.followUp.title}" (inbox).`,
        );
      } else if (move.followUp.state === 'not_staged') lines.push(move.followUp.message);
      for (const failed of move.hookFailures)
        lines.push(`hooks/${failed.hook} failed: ${failed.message}`);
      if (move.project !== null) {
        lines.push(`That was the last open task of ${move.project.projectId}.`, move.project.line);
      }
      return { ok: true, lines };
    }
    case 'reopened': {
      const lines = [move.reopenLine];
      if (move.creditLine !== null) lines.push(move.creditLine);
      for (const failed of move.hookFailures)
        lines.push(`hooks/${failed.hook} failed: ${failed.message}`);
      return { ok: true, lines };
    }
  }
}
