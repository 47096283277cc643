import type { Success, SuccessesReadout } from '@mecha/appraisal-core';
import { goalText, stripControl } from '@mecha/appraisal-core';
import type { ReadProblem } from '@mecha/stores';
import type { Style } from '../style.js';
import { type Clock, count, joined, problemsSection, wrapText } from './format.js';

const kindWords: Record<Success['kind'], string> = {
  draft_sent_unchanged: 'you sent a draft as mecha wrote it',
  task_closed_done: 'you closed a task done',
  workflow_closed_after_check: 'you closed a workflow after its check passed',
  question_answered_then_finished: 'you answered a question and the work then finished',
};

function successLine(success: Success, style: Style, clock: Clock): string {
  const status =
    success.status === 'standing'
      ? undefined
      : success.status === 'withdrawn'
        ? style.amber(
            `withdrawn by ${success.withdrawn_by?.kind ?? 'a'} ${success.withdrawn_by?.id ?? 'reopen'}`,
          )
        : success.status === 'unknown'
          ? `unknown (${(success.unknown_reason ?? 'unconfirmed').replaceAll('_', ' ')}), not counted`
          : 'hidden (development session)';
  return `  ${clock(success.at)}  ${joined([
    kindWords[success.kind],
    `${success.cite.kind} ${success.cite.id}`,
    success.session_id === null ? 'no session' : `session ${success.session_id}`,
    success.goal === undefined ? undefined : `toward ${goalText(success.goal)}`,
    status,
  ])}`;
}

/** What the human readout of `sessions successes` shows besides the counts. */
export interface SuccessesView {
  readonly exemplars: boolean;
  readonly examples: boolean;
  readonly limit: number;
  /** Times in the owner's zone. */
  readonly clock: Clock;
}

/**
 * The human readout of `sessions successes`: the counts, the set newest first, and on request
 * each writing exemplar as sent or the planning examples and why the rest lend none.
 */
export function renderSuccesses(
  result: SuccessesReadout,
  view: SuccessesView,
  problems: readonly ReadProblem[],
  style: Style,
): string {
  const kinds = result.by_kind;
  const lines = [
    style.bold(
      `What went right: ${count(result.standing)} standing${result.partial ? ' (partial)' : ''}`,
    ),
    `  ${joined([
      `draft sent unchanged ${count(kinds.draft_sent_unchanged)}`,
      `task closed done ${count(kinds.task_closed_done)}`,
      `workflow closed after its check ${count(kinds.workflow_closed_after_check)}`,
      `question answered then finished ${count(kinds.question_answered_then_finished)}`,
    ])}`,
    `  ${joined([`${count(result.withdrawn)} withdrawn by a reopen`, `${count(result.unknown)} unknown, never counted`, `${count(result.hidden)} hidden in development sessions`])}`,
    style.dim('  Only your own acts count; nothing is written down to make this list.'),
    '',
  ];
  const shown = result.successes.slice(0, view.limit);
  if (shown.length === 0) lines.push('No successes on record.');
  else {
    lines.push(
      `Newest first${result.successes.length > shown.length ? ` (${shown.length} of ${result.successes.length}; -n to show more)` : ''}:`,
    );
    for (const success of shown) lines.push(successLine(success, style, view.clock));
  }
  if (view.exemplars) {
    lines.push('');
    if (result.exemplars === null)
      lines.push('Writing exemplars: unknown (the outbox could not be read).');
    else {
      lines.push(
        `Writing exemplars (${result.exemplars.length}): each draft you sent unchanged, as sent. No run is shown them yet.`,
      );
      for (const exemplar of result.exemplars.slice(0, view.limit)) {
        lines.push(
          `  draft ${exemplar.draft_id} · ${view.clock(exemplar.at)} · ${stripControl(exemplar.tool)} · ${exemplar.taint.replace('_', ' ')} · session ${exemplar.session_id}`,
        );
        lines.push(
          ...(exemplar.text === null
            ? ['  │ (the staging record kept no text)']
            : wrapText(stripControl(exemplar.text), '  │ ')),
        );
      }
    }
  }
  if (view.examples) {
    lines.push(
      '',
      `Planning examples (${result.examples.length}): call traces, not plans; served only to a run in the same situation.`,
    );
    for (const example of result.examples.slice(0, view.limit)) {
      lines.push(
        `  ${example.cite.kind} ${example.cite.id} · toward ${goalText(example.goal)} · session ${example.session_id}: ${stripControl(example.trace)}`,
      );
    }
    if (result.lends_none.length > 0) {
      const reasons: Record<string, number> = {};
      for (const entry of result.lends_none)
        reasons[entry.reason] = (reasons[entry.reason] ?? 0) + 1;
      lines.push(
        `  lending none: ${Object.entries(reasons)
          .sort((a, b) => b[1] - a[1])
          .map(([reason, value]) => `${reason.replaceAll('_', ' ')} ${value}`)
          .join(' · ')}`,
      );
    }
  }
  lines.push(...problemsSection(problems), '');
  return lines.join('\n');
}
