import type { BoardTask, ClosureRecord, TaskStatus } from '@mecha/appraisal-core';
import type { TaskMove } from '@mecha/stores';
import { html } from 'hono/html';
import { csrfField, type Html, type Said } from '../views/layout.js';

const order: readonly TaskStatus[] = ['inbox', 'next', 'waiting', 'done', 'dropped'];

/** The latest closure or reopen of each task, from the closure record. */
export function latestClosures(
  records: readonly ClosureRecord[],
): ReadonlyMap<string, ClosureRecord> {
  const latest = new Map<string, ClosureRecord>();
  for (const record of records) latest.set(record.task_id, record);
  return latest;
}

function taskHtml(task: BoardTask, closure: ClosureRecord | undefined, csrf: string): Html {
  const closed = task.status === 'done' || task.status === 'dropped';
  return html`<li id="task-${task.id}" data-task="${task.id}" data-status="${task.status}">
<div class="run__meta">${task.id}<br><span class="status">${task.status}</span>${task.project_id === undefined ? '' : html` · ${task.project_id}`}${task.due === undefined ? '' : html` · due ${task.due}`}</div>
<div class="run__answer">${task.title}</div>
<div class="acts">${
    closed
      ? html`<form method="post" action="/board/${task.id}/reopen" aria-label="Reopen ${task.id}">${csrfField(csrf)}
<label>Back to<select name="to"><option value="next">next</option><option value="inbox">inbox</option><option value="waiting">waiting</option></select></label>
<label>Reason<input name="reason" size="24" maxlength="4000"></label>
<button type="submit">Reopen</button></form>`
      : html`<form method="post" action="/board/${task.id}/close" aria-label="Close ${task.id}">${csrfField(csrf)}<input type="hidden" name="from" value="${task.status}"><button type="submit" name="to" value="done">Done</button> <button type="submit" name="to" value="dropped">Drop</button></form>`
  }</div>
${
  closure === undefined
    ? ''
    : html`<p class="closure" data-closure="${closure.closure_id}">${closure.reopens === undefined ? `Closed ${closure.from} → ${closure.to}` : `Reopened ${closure.from} → ${closure.to}`} on ${closure.surface} (closure ${closure.closure_id})${closure.appraisal_line === undefined ? '' : html`: <span class="closure__line">${closure.appraisal_line}</span>`}${closure.reason === undefined ? '' : html` · reason: ${closure.reason}`}</p>`
}
</li>`;
}

/** The board: tasks by status, with Done and Drop, and Reopen with a reason. */
export function boardPage(
  tasks: readonly BoardTask[],
  closures: ReadonlyMap<string, ClosureRecord> | null,
  csrf: string,
  notes: readonly string[],
): Html {
  return html`<h1>Board</h1>
<p class="note">Done and Drop close a task through mecha's one closure path: the closure is recorded first (with mecha's appraisal line), then the board changes. A task closed elsewhere since this page was drawn changes nothing.</p>
${notes.map((note) => html`<p class="note">${note}</p>`)}
${order.map((status) => {
  const rows = tasks.filter((task) => task.status === status);
  return html`<h2 id="status-${status}">${status} <span class="note">(${rows.length})</span></h2>
${rows.length === 0 ? html`<p class="note">None.</p>` : html`<ul class="items">${rows.map((task) => taskHtml(task, closures?.get(task.id), csrf))}</ul>`}`;
})}`;
}

/** What a move from the board came to, as lines to show above it. */
export function moveSaid(move: TaskMove): Said {
  switch (move.state) {
    case 'refused':
      return { ok: false, lines: [move.message] };
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
