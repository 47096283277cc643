import {
  type Agency,
  type Cite,
  citeText,
  entryText,
  eventSourceText,
  explainLabel,
  formatSign,
  type GoalRef,
  goalText,
  type SessionAppraisal,
  type SourceRead,
  stripControl,
  stripControlLines,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import type { RunRow } from '@mecha/stores';
import { html } from 'hono/html';
import { appraisalChipHtml, taintChipHtml } from '../views/chip.js';
import type { Html } from '../views/layout.js';
import { textAppraisalPartsHtml } from './runs-page.js';

/** What the session page looks up beside the reading: goals' titles and rejections' reasons. */
export interface SessionContext {
  /** A goal's title by `goalText(goal)` (a task's title, a charter line's text). */
  readonly goalTitles: ReadonlyMap<string, string>;
  /** The owner's reason for each rejected draft, by draft id. */
  readonly rejections: ReadonlyMap<string, string>;
}

/** Who caused an outcome, in words (agency is read before exposure when a label is derived). */
export function agencyText(agency: Agency): string {
  switch (agency) {
    case 'self':
      return 'the run itself (its own doing)';
    case 'owner':
      return 'you, the owner';
    case 'other':
      return 'another person';
    case 'world':
      return 'the world (nobody’s doing)';
  }
}

/** Characters of a message or result shown before the rest is folded away. */
export const foldCharacters = 400;

function when(iso: string | undefined): string {
  return iso === undefined ? 'unknown time' : iso.replace('T', ' ').slice(0, 16);
}

/** The anchor of a turn in the trace: the first run's turn of that number. */
function turnAnchor(turn: number): string {
  return `turn-${turn}`;
}

/** A cite as a link where the page shows what it points at (a turn, a counter), else as text. */
function citeHtml(cite: Cite, anchors: ReadonlySet<string>): Html {
  const text = citeText(cite);
  const anchor =
    cite.kind === 'turn'
      ? turnAnchor(cite.turn)
      : cite.kind === 'counter'
        ? `counter-${cite.name}`
        : undefined;
  return anchor !== undefined && anchors.has(anchor)
    ? html`<a href="#${anchor}">${text}</a>`
    : html`${text}`;
}

/** Long text folded: the start shown, the whole a click away. */
function folded(text: string): Html {
  const clean = stripControlLines(text);
  const characters = Array.from(clean);
  if (characters.length <= foldCharacters) return html`<pre>${clean}</pre>`;
  return html`<details><summary><span class="fold__start">${characters.slice(0, foldCharacters).join('')}…</span> <span class="note">(show all ${characters.length.toLocaleString('en')} characters)</span></summary><pre>${clean}</pre></details>`;
}

function sourceHtml(event: TranscriptEvent): Html | string {
  return event.source === undefined
    ? ''
    : html` <span class="note event__source">from <code>${eventSourceText(event.source)}</code></span>`;
}

function eventHtml(event: TranscriptEvent, anchors: Set<string>): Html {
  const from = sourceHtml(event);
  switch (event.type) {
    case 'message':
      return html`<li class="event event--message"><span class="event__kind">${event.role === 'assistant' ? 'the model' : event.role === 'owner' ? 'you' : event.role === 'third_party' ? 'a third party' : 'system'}</span> ${taintChipHtml(event.taint === 'third_party')}${event.text === undefined ? html` <span class="note">(text not recorded)</span>` : folded(event.text)}${from}</li>`;
    case 'tool_call':
      return html`<li class="event"><span class="event__kind">tool call</span> <code>${stripControl(event.tool)}</code>${event.target === undefined ? '' : html` on <code>${stripControl(event.target)}</code>`}${from}</li>`;
    case 'tool_result':
      return html`<li class="event"><span class="event__kind">tool result</span> ${event.status === 'ok' ? 'ok' : event.status === 'error' ? 'an error' : 'denied'} ${taintChipHtml(event.taint === 'third_party')}${event.text === undefined ? '' : folded(event.text)}${from}</li>`;
    case 'intervention':
      return html`<li class="event"><span class="event__kind">you stepped in</span> ${event.kind === 'steer' ? 'you steered the run' : event.kind === 'deny' ? 'you denied a call' : 'you stopped the run'}${from}</li>`;
    case 'step_check':
      return html`<li class="event"><span class="event__kind">step check</span> ${stripControl(event.step_id)} ${event.passed ? 'passed' : 'failed'}${from}</li>`;
    case 'compaction':
      return html`<li class="event"><span class="event__kind">compaction</span> the message list was rewritten in place${from}</li>`;
    case 'counter': {
      const id = `counter-${event.name}`;
      const first = !anchors.has(id);
      anchors.add(id);
      return html`<li class="event"${first ? html` id="${id}"` : ''}><span class="event__kind">counter</span> ${event.name} = ${event.value}${from}</li>`;
    }
    default:
      return html``;
  }
}

type Run = {
  readonly start: Extract<TranscriptEvent, { type: 'run_start' }> | undefined;
  readonly runId: string;
  readonly events: TranscriptEvent[];
  end: Extract<TranscriptEvent, { type: 'run_end' }> | undefined;
};

/** The transcript's events grouped by run, in record order. */
function runsOf(events: readonly TranscriptEvent[]): Run[] {
  const runs = new Map<string, Run>();
  for (const event of events) {
    let run = runs.get(event.run_id);
    if (run === undefined) {
      run = {
        start: event.type === 'run_start' ? event : undefined,
        runId: event.run_id,
        events: [],
        end: undefined,
      };
      runs.set(event.run_id, run);
    }
    if (event.type === 'run_end') run.end = event;
    else if (event.type !== 'run_start') run.events.push(event);
  }
  return [...runs.values()];
}

function turnOf(event: TranscriptEvent): number | undefined {
  return 'turn' in event && typeof event.turn === 'number' ? event.turn : undefined;
}

/** The trace: each run, its turns in order, what happened in each, and why the run stopped. */
function traceHtml(
  transcript: SourceRead<TranscriptEvent>,
  cited: ReadonlySet<number>,
  anchors: Set<string>,
): Html {
  if (transcript.state === 'unreadable') {
    return html`<p class="note">The transcript could not be read: ${transcript.reason}.</p>`;
  }
  const runs = runsOf(transcript.records);
  if (runs.length === 0) return html`<p class="note">No run recorded.</p>`;
  return html`${transcript.state === 'partial' ? html`<p class="note">Some lines of the transcript are damaged and were skipped (mecha doctor names them).</p>` : ''}${runs.map(
    (run) => {
      const outside = run.events.filter((event) => turnOf(event) === undefined);
      const turns = new Map<number, TranscriptEvent[]>();
      for (const event of run.events) {
        const turn = turnOf(event);
        if (turn === undefined) continue;
        const list = turns.get(turn) ?? [];
        list.push(event);
        turns.set(turn, list);
      }
      return html`<section class="trace-run" aria-label="Run ${run.runId}">
<h3>Run ${run.runId} <span class="note">(${when(run.start?.at)}${run.start === undefined ? '' : html` · ${run.start.surface}`})</span>${run.start === undefined ? '' : sourceHtml(run.start)}</h3>
<ol class="turns">${[...turns.entries()].map(([turn, events]) => {
        const anchor = turnAnchor(turn);
        const first = !anchors.has(anchor);
        anchors.add(anchor);
        return html`<li class="turn${cited.has(turn) ? ' turn--cited' : ''}"${first ? html` id="${anchor}"` : ''}><h4>Turn ${turn}${cited.has(turn) ? html` <span class="note">(cited)</span>` : ''}</h4><ul class="events">${events.map((event) => eventHtml(event, anchors))}</ul></li>`;
      })}</ol>
${outside.length === 0 ? '' : html`<ul class="events">${outside.map((event) => eventHtml(event, anchors))}</ul>`}
<p class="stop">${run.end === undefined ? html`<span class="note">The run has not ended (or its end was not recorded).</span>` : html`Stopped: <strong>${run.end.stop_cause.replaceAll('_', ' ')}</strong>${run.end.turns === undefined ? '' : html` after ${run.end.turns} turn${run.end.turns === 1 ? '' : 's'}`}.`}</p>
</section>`;
    },
  )}`;
}

function goalHtml(goal: GoalRef | undefined, context: SessionContext): Html {
  const text = goalText(goal);
  const title = context.goalTitles.get(text);
  return title === undefined ? html`${text}` : html`${text}: “${stripControl(title)}”`;
}

/**
 * Session detail: why the label (the sentence the CLI and Slack show, `explainLabel`), each
 * signed error in plain words with its goal and who caused it, a trace of the runs and turns
 * with every cite a link to what it points at, the conditions and brief, and the text appraisal.
 */
export function sessionPage(
  found: Extract<SessionAppraisal, { readonly state: 'appraised' }>,
  row: RunRow | undefined,
  transcript: SourceRead<TranscriptEvent>,
  context: SessionContext,
): Html {
  const { reading, textAppraisal } = found;
  const chip = row?.chip;
  const reason = explainLabel(reading);
  const cited = new Set(
    reading.errors.flatMap((error) => (error.cite.kind === 'turn' ? [error.cite.turn] : [])),
  );
  // The trace is drawn first so the cites know which anchors exist.
  const anchors = new Set<string>();
  const trace = traceHtml(transcript, cited, anchors);
  const runStarts =
    transcript.state === 'unreadable'
      ? []
      : transcript.records.flatMap((event) => (event.type === 'run_start' ? [event] : []));
  return html`<h1>Session ${reading.sessionId}</h1>
<p>${chip === undefined ? html`<span class="note">Silent: nothing was signed either way.</span>` : appraisalChipHtml(chip)} ${taintChipHtml(row?.thirdParty ?? false)}</p>
<p class="why" id="why">${reason.sentence}</p>
<dl class="facts">
<dt>Label</dt><dd>${reading.label}</dd>
<dt>Valence</dt><dd>positive ${reading.valence.positive.toFixed(1)}, negative ${reading.valence.negative.toFixed(1)}${reading.valence.partial ? ' (partial)' : ''}</dd>
<dt>Transcript</dt><dd>${reading.transcriptRead ? 'read' : 'could not be read'}${reading.compacted ? '; the run compacted, so its interventions could not be scoped' : ''}</dd>
${reading.incomplete.length > 0 ? html`<dt>Not read whole</dt><dd>${reading.incomplete.join(', ')}</dd>` : ''}
</dl>
<h2>Signed errors</h2>
${
  reading.entries.length === 0
    ? html`<p class="note">None.</p>`
    : html`<ul class="errors">${reading.entries.map((entry) => {
        const error = entry.error;
        const rejected =
          error.cite.kind === 'draft' ? context.rejections.get(error.cite.draft_id) : undefined;
        return html`<li class="error"><span class="error__sign">${formatSign(error.sign)}</span> <span class="error__what">${entryText(entry)}${rejected === undefined ? '' : html`: “${stripControl(rejected)}”`}</span>
<span class="note error__detail">Cite: ${citeHtml(error.cite, anchors)} · goal: ${goalHtml(error.goal, context)} · caused by ${agencyText(error.agency)} · ${error.channel} channel${error.visible ? ' · it reached someone' : ''}</span></li>`;
      })}</ul>`
}
<h2>Trace</h2>
${trace}
<h2>Conditions and brief</h2>
${
  runStarts.length === 0
    ? html`<p class="note">No run recorded.</p>`
    : runStarts.map(
        (run) => html`<h3>Run ${run.run_id} <span class="note">(${when(run.at)})</span></h3>
${run.conditions === undefined ? html`<p class="note">No conditions recorded.</p>` : html`<pre>${JSON.stringify(run.conditions, null, 2)}</pre>`}
${run.brief === undefined ? html`<p class="note">No brief recorded.</p>` : html`<p>Brief (${run.brief.delivered === true ? 'delivered' : 'not delivered'}):</p><pre>${stripControlLines(run.brief.text)}</pre>`}`,
      )
}
<h2>Text appraisal</h2>
${
  textAppraisal.state === 'unreadable'
    ? html`<p class="note">The text appraisals could not be read.</p>`
    : textAppraisal.state === 'none'
      ? html`<p class="note">None on record.</p>`
      : html`<p><strong>${textAppraisal.record.taint === 'clean' ? 'clean' : 'not clean'}</strong> <span class="note">(${textAppraisal.record.taint === 'clean' ? 'read no third-party content' : textAppraisal.record.taint === 'third_party' ? 'read third-party content' : 'taint unknown'}; ${when(textAppraisal.record.at)})</span></p>
<pre>${stripControlLines(textAppraisal.record.interpretation)}</pre>
${textAppraisalPartsHtml(textAppraisal.record)}`
}`;
}
