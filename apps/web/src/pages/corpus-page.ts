import {
  type CorpusAppraisal,
  type SuccessesReadout,
  stripControl,
  sumValence,
  type ValenceSums,
} from '@mecha/appraisal-core';
import type { ReadProblem, RunRow } from '@mecha/stores';
import { html } from 'hono/html';
import type { Html } from '../views/layout.js';

/** One day of the corpus: positive and negative valence summed apart, and labels counted. */
export interface CorpusDay {
  readonly day: string;
  readonly positive: number;
  readonly negative: number;
  readonly labels: Readonly<Record<string, number>>;
}

/** Folds the population's rows into days (by when each session began), oldest first. */
export function corpusDays(rows: readonly RunRow[]): readonly CorpusDay[] {
  const days = new Map<string, { valences: ValenceSums[]; labels: Record<string, number> }>();
  for (const row of rows) {
    if (row.valence === null || row.label === null) continue;
    const day = row.listing.startedAt.slice(0, 10);
    const entry = days.get(day) ?? { valences: [], labels: {} };
    entry.valences.push(row.valence);
    if (row.chip !== undefined && row.label !== 'neutral') {
      entry.labels[row.label] = (entry.labels[row.label] ?? 0) + 1;
    }
    days.set(day, entry);
  }
  return [...days.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, { valences, labels }]) => {
      const { positive, negative } = sumValence(valences);
      return { day, positive, negative, labels };
    });
}

/** How many line styles the label chart has (told apart by dash, not colour). */
const labelStyles = 4;
const width = 640;
const height = 180;
const pad = { left: 40, right: 10, top: 10, bottom: 24 };

function points(values: readonly number[], max: number): string {
  const innerWidth = width - pad.left - pad.right;
  const innerHeight = height - pad.top - pad.bottom;
  const step = values.length > 1 ? innerWidth / (values.length - 1) : 0;
  return values
    .map((value, index) => {
      const x = pad.left + index * step;
      const y = pad.top + innerHeight - (max === 0 ? 0 : (value / max) * innerHeight);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/** A hand-drawn SVG line chart: one polyline per series, axes, first and last day. */
function lineChart(
  title: string,
  days: readonly CorpusDay[],
  series: readonly {
    readonly name: string;
    readonly className: string;
    readonly values: readonly number[];
  }[],
): Html {
  const max = Math.max(0, ...series.flatMap((entry) => entry.values));
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return html`<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${title}: ${series.map((entry) => `${entry.name} peaks at ${Math.max(0, ...entry.values).toFixed(1)}`).join('; ')}, ${first} to ${last}">
<line class="axis" x1="${pad.left}" y1="${height - pad.bottom}" x2="${width - pad.right}" y2="${height - pad.bottom}"></line>
<line class="axis" x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${height - pad.bottom}"></line>
<text x="2" y="${pad.top + 10}">${max.toFixed(1)}</text><text x="2" y="${height - pad.bottom}">0</text>
<text x="${pad.left}" y="${height - 6}">${first}</text><text x="${width - pad.right - 70}" y="${height - 6}">${last}</text>
${series.map((entry) => html`<polyline class="${entry.className}" points="${points(entry.values, max)}"></polyline>`)}
</svg>`;
}

/** Your acts as horizontal bars, each with its count written beside it (unknown has no bar). */
function actsChart(acts: readonly (readonly [string, number | null])[]): Html {
  const max = Math.max(1, ...acts.map(([, n]) => n ?? 0));
  const rowHeight = 22;
  return html`<svg class="chart" viewBox="0 0 ${width} ${acts.length * rowHeight + 4}" width="${width}" height="${acts.length * rowHeight + 4}" role="img" aria-label="Your acts: ${acts.map(([act, n]) => `${act} ${n === null ? 'unknown' : n}`).join(', ')}">
${acts.map(([act, n], index) => {
  const y = index * rowHeight + 4;
  const barWidth = n === null ? 0 : Math.round(((width - 260) * n) / max);
  return html`<text x="0" y="${y + 13}">${act}</text><rect class="acts-bar" x="200" y="${y + 2}" width="${barWidth}" height="14"></rect><text x="${206 + barWidth}" y="${y + 13}">${n === null ? 'unknown' : n}</text>`;
})}</svg>`;
}

function count(value: number | null): string {
  return value === null ? 'unknown' : String(value);
}

/**
 * Why the corpus valence is partial, in the CLI's words: the sources not read whole (named
 * below, as `--json` names them), sessions that could not be read, or else a run that compacted.
 */
export function partialReason(
  corpus: CorpusAppraisal,
  notReadWhole: readonly ReadProblem[],
): string {
  if (notReadWhole.length > 0) {
    const sources = [...new Set(notReadWhole.map((problem) => stripControl(problem.source)))];
    return `${sources.slice(0, 3).join(', ')}${sources.length > 3 ? ` and ${sources.length - 3} more` : ''} not read whole (listed below)`;
  }
  if ((corpus.sessions_unreadable ?? 0) > 0) {
    return `${corpus.sessions_unreadable} session${corpus.sessions_unreadable === 1 ? '' : 's'} could not be read`;
  }
  return 'a run compacted, so its interventions could not be scoped';
}

/** How many sources not read whole the page lists before "and N more". */
const problemsShown = 50;

function notReadWholeHtml(problems: readonly ReadProblem[]): Html {
  if (problems.length === 0) return html``;
  return html`<h3>Not read whole</h3>
<ul id="not-read-whole">${problems.slice(0, problemsShown).map((problem) => html`<li><code>${stripControl(problem.source)}</code>: ${stripControl(problem.what)}</li>`)}${problems.length > problemsShown ? html`<li>… and ${problems.length - problemsShown} more (<code>mecha sessions appraise --json</code> lists them all)</li>` : ''}</ul>`;
}

/**
 * The corpus readout (the same value as `mecha sessions appraise --json`) as a page: valence
 * first, never netted, with charts per day (positive and negative as two series), labels over
 * time, owner acts and the counts. A count the readout could not make is "unknown", never 0.
 */
export function corpusPage(
  corpus: CorpusAppraisal,
  days: readonly CorpusDay[],
  window: string,
  /** Every source not read whole and why: `not_read_whole` of the CLI's `--json`. */
  notReadWhole: readonly ReadProblem[] = [],
): Html {
  const labels = Object.entries(corpus.labels ?? {}).filter(([, n]) => n > 0);
  const worded = labels.filter(([label]) => label !== 'neutral').map(([label]) => label);
  return html`<h1>Corpus</h1>
<p class="note">${window}. The same readout as <code>mecha sessions appraise --json</code>, derived from your records.</p>
<h2>Valence</h2>
<p id="corpus-valence" data-positive="${corpus.valence.positive ?? ''}" data-negative="${corpus.valence.negative ?? ''}">positive ${corpus.valence.positive === null ? 'unknown' : corpus.valence.positive.toFixed(1)}, negative ${corpus.valence.negative === null ? 'unknown' : corpus.valence.negative.toFixed(1)}${corpus.valence.partial ? html` (partial: ${partialReason(corpus, notReadWhole)})` : ''}</p>${notReadWholeHtml(notReadWhole)}
<h2>Valence per day</h2>
<div class="legend"><span class="swatch-negative">negative (solid)</span><span class="swatch-positive">positive (dashed)</span></div>
${
  days.length === 0
    ? html`<p class="note">No sessions in this window.</p>`
    : lineChart('Positive and negative valence per day', days, [
        { name: 'negative', className: 'series-negative', values: days.map((day) => day.negative) },
        { name: 'positive', className: 'series-positive', values: days.map((day) => day.positive) },
      ])
}
<h2>Labels over time</h2>
${
  worded.length === 0
    ? html`<p class="note">No run earned a label word in this window.</p>`
    : html`<div class="legend">${worded.map(
        (label, index) =>
          html`<span><svg width="28" height="10" aria-hidden="true"><line class="series-label-${index % labelStyles}" x1="0" y1="5" x2="28" y2="5"></line></svg>${label}</span>`,
      )}</div>${lineChart(
        'Sessions per day by label',
        days,
        worded.map((label, index) => ({
          name: label,
          className: `series-label-${index % labelStyles}`,
          values: days.map((day) => day.labels[label] ?? 0),
        })),
      )}<details><summary>Labels per day as a table</summary><table><thead><tr><th scope="col">Day</th>${worded.map((label) => html`<th scope="col" class="number">${label}</th>`)}</tr></thead><tbody>${days.map((day) => html`<tr><td>${day.day}</td>${worded.map((label) => html`<td class="number">${day.labels[label] ?? 0}</td>`)}</tr>`)}</tbody></table></details>`
}
<h2>Labels</h2>
<table id="corpus-labels"><thead><tr><th scope="col">Label</th><th scope="col" class="number">Sessions</th></tr></thead><tbody>${
    corpus.labels === null
      ? html`<tr><td colspan="2">unknown (the sessions could not be listed)</td></tr>`
      : labels.map(
          ([label, n]) =>
            html`<tr data-label="${label}" data-count="${n}"><td>${label}</td><td class="number">${n}</td></tr>`,
        )
  }</tbody></table>
<h2>Owner acts</h2>
${actsChart(Object.entries(corpus.owner_acts).map(([act, n]) => [act.replaceAll('_', ' '), n] as const))}
<table id="owner-acts"><thead><tr><th scope="col">Act</th><th scope="col" class="number">Count</th></tr></thead><tbody>${Object.entries(
    corpus.owner_acts,
  ).map(
    ([act, n]) =>
      html`<tr><td>${act.replaceAll('_', ' ')}</td><td class="number">${count(n)}</td></tr>`,
  )}
<tr><td>rejections with your reason</td><td class="number">${count(corpus.reasoned_rejections)}</td></tr></tbody></table>
<h2>Counts</h2>
<dl class="facts">
<dt>Sessions read</dt><dd>${count(corpus.sessions_read)}</dd>
<dt>Sessions unreadable</dt><dd>${count(corpus.sessions_unreadable)}</dd>
<dt>Named a goal</dt><dd>${count(corpus.named_a_goal)}</dd>
<dt>Cite a charter line</dt><dd>${count(corpus.cite_a_charter_line)}</dd>
<dt>Attributed by a sensor</dt><dd>${count(corpus.attributed_by_sensor)}</dd>
<dt>Goal put to you / confirmed</dt><dd>${count(corpus.goal_put_to_owner)} / ${count(corpus.goal_confirmed)}</dd>
<dt>Development sessions hidden</dt><dd>${count(corpus.tests_hidden)}</dd>
<dt>Sources read whole</dt><dd>${[
    ['outbox', corpus.outbox_read],
    ['questions', corpus.questions_read],
    ['front door', corpus.frontdoor_read],
    ['learning', corpus.learning_read],
    ['charter', corpus.charter_read],
    ['closures', corpus.closures_read],
    ['workflows', corpus.workflows_read],
  ]
    .map(([name, read]) => `${name} ${read ? 'yes' : 'no'}`)
    .join(', ')}</dd>
</dl>`;
}

/** What went right, as the owner's own acts say, newest first. */
export function successesPage(readout: SuccessesReadout, limit = 50): Html {
  const kinds = Object.entries(readout.by_kind);
  return html`<h1>Successes</h1>
<p class="note">What went right, read fresh from your acts: drafts you sent as written, tasks you closed done, workflows closed after a passing check, questions you answered after which the work finished. A reopen withdraws one; one that cannot be confirmed is unknown and never counted.</p>
<p>${readout.standing === null ? 'unknown' : readout.standing} standing · ${count(readout.withdrawn)} withdrawn · ${count(readout.unknown)} unknown · ${count(readout.hidden)} hidden${readout.partial ? ' (partial: some source was not read whole)' : ''}</p>
<table><thead><tr><th scope="col">Kind</th><th scope="col" class="number">Standing</th></tr></thead><tbody>${kinds.map(
    ([kind, n]) =>
      html`<tr><td>${kind.replaceAll('_', ' ')}</td><td class="number">${count(n)}</td></tr>`,
  )}</tbody></table>
<h2>Newest</h2>
${
  readout.successes.length === 0
    ? html`<p class="note">None yet.</p>`
    : html`<ul class="items">${readout.successes
        .slice(0, limit)
        .map(
          (success) =>
            html`<li><div class="run__meta">${success.at.replace('T', ' ').slice(0, 16)}</div><div class="run__answer">${success.kind.replaceAll('_', ' ')} · ${success.status}${success.status === 'unknown' && success.unknown_reason !== undefined ? ` (${success.unknown_reason.replaceAll('_', ' ')})` : ''} · ${success.cite.kind} ${success.cite.id}${success.session_id === null ? '' : html` · <a href="/sessions/${success.session_id}">${success.session_id}</a>`}</div></li>`,
        )}</ul>`
}`;
}
