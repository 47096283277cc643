import { type CorpusAppraisal, type SuccessesReadout, stripControl } from '@mecha/appraisal-core';
import type { ReadProblem } from '@mecha/stores';
import { html, raw } from 'hono/html';
import type { Html } from '../views/layout.js';
import type { CorpusBucket, CorpusBuckets } from './corpus-days.js';

/** The windows the corpus page offers, in days (undefined: every session). */
export const corpusWindows: readonly (number | undefined)[] = [7, 30, 90, undefined];

/** The window control: links, so each window is an address; the current one is marked. */
function windowControl(days: number | undefined): Html {
  return html`<nav class="window" aria-label="Window"><ul>${corpusWindows.map((choice) => {
    const name = choice === undefined ? 'all' : `${choice} days`;
    const href = choice === undefined ? '/corpus' : `/corpus?days=${choice}`;
    return html`<li><a href="${href}"${raw(choice === days ? ' aria-current="page"' : '')}>${name}</a></li>`;
  })}</ul></nav>`;
}

const width = 640;
const height = 190;
const pad = { left: 36, right: 8, top: 22, bottom: 22 };
const innerWidth = width - pad.left - pad.right;
const innerHeight = height - pad.top - pad.bottom;

/** How many fills (a colour and a pattern each) the label chart has before they repeat. */
const labelFills = 6;

/** The label fills: one colour each (light and dark, from the stylesheet) and one pattern each. */
const labelPatterns = html`<defs>${Array.from({ length: labelFills }, (_, index) => {
  const marks = [
    '',
    '<path d="M0,6 L6,0" class="hatch"></path>',
    '<path d="M0,3 L6,3" class="hatch"></path>',
    '<circle cx="3" cy="3" r="1.2" class="dot"></circle>',
    '<path d="M0,6 L6,0 M0,0 L6,6" class="hatch"></path>',
    '<path d="M3,0 L3,6" class="hatch"></path>',
  ][index] as string;
  return html`<pattern id="label-fill-${index}" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" class="label-${index}"></rect>${raw(marks)}</pattern>`;
})}</defs>`;

function bucketName(bucket: CorpusBucket, widthDays: 1 | 7): string {
  return `${widthDays === 7 ? `week of ${bucket.day}` : bucket.day}${bucket.partial ? ' (today, so far)' : ''}`;
}

/** The chart's frame: axes, the top value and 0, the first and last bucket, today's mark. */
function frame(
  buckets: readonly CorpusBucket[],
  top: string,
  slot: number,
  widthDays: 1 | 7,
): Html {
  const last = buckets[buckets.length - 1];
  return html`<line class="axis" x1="${pad.left}" y1="${height - pad.bottom}" x2="${width - pad.right}" y2="${height - pad.bottom}"></line>
<line class="axis" x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${height - pad.bottom}"></line>
<text x="2" y="${pad.top + 10}">${top}</text><text x="2" y="${height - pad.bottom}">0</text>
<text x="${pad.left}" y="${height - 6}">${buckets[0]?.day ?? ''}</text><text x="${width - pad.right}" y="${height - 6}" text-anchor="end">${last?.day ?? ''}${widthDays === 7 ? ' (weeks)' : ''}</text>${
    last?.partial === true
      ? html`<rect class="today-band" x="${(pad.left + (buckets.length - 1) * slot).toFixed(1)}" y="${pad.top}" width="${slot.toFixed(1)}" height="${innerHeight}"></rect><text x="${width - pad.right}" y="${pad.top - 8}" text-anchor="end">today, so far ▾</text>`
      : ''
  }`;
}

/** A bucket none of whose sessions could be read: a marked band, never a bar of 0. */
function unreadBand(bucket: CorpusBucket, x: number, slot: number, widthDays: 1 | 7): Html {
  return html`<g class="bucket bucket--unread" data-day="${bucket.day}"><title>${bucketName(bucket, widthDays)}: ${bucket.sessions} session${bucket.sessions === 1 ? '' : 's'}, none could be read: unknown, not 0</title><rect class="unread" x="${x.toFixed(1)}" y="${pad.top}" width="${slot.toFixed(1)}" height="${innerHeight}"></rect><text x="${(x + slot / 2).toFixed(1)}" y="${height - pad.bottom - 4}" text-anchor="middle">?</text></g>`;
}

/** Positive and negative valence per bucket as two bars side by side (never netted). */
function valenceChart(buckets: readonly CorpusBucket[], widthDays: 1 | 7): Html {
  const max = Math.max(
    0,
    ...buckets.flatMap((bucket) =>
      bucket.valence === null ? [] : [bucket.valence.positive, bucket.valence.negative],
    ),
  );
  const slot = innerWidth / buckets.length;
  const bar = Math.max(1, slot / 2 - 1);
  const y = (value: number) => (max === 0 ? 0 : (value / max) * innerHeight);
  return html`<svg class="chart" id="valence-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Positive and negative valence per ${widthDays === 7 ? 'week' : 'day'}, ${buckets[0]?.day ?? ''} to ${buckets[buckets.length - 1]?.day ?? ''}; the table below lists every value">
${frame(buckets, max.toFixed(1), slot, widthDays)}
${buckets.map((bucket, index) => {
  const x = pad.left + index * slot;
  if (bucket.valence === null) return unreadBand(bucket, x, slot, widthDays);
  const { positive, negative } = bucket.valence;
  const base = height - pad.bottom;
  return html`<g class="bucket${bucket.partial ? ' bucket--today' : ''}" data-day="${bucket.day}"><title>${bucketName(bucket, widthDays)}: negative ${negative.toFixed(1)}, positive ${positive.toFixed(1)} (${bucket.sessions} session${bucket.sessions === 1 ? '' : 's'}${bucket.unreadable > 0 ? `, ${bucket.unreadable} unreadable` : ''})</title><rect class="bar-negative" x="${(x + 0.5).toFixed(1)}" y="${(base - y(negative)).toFixed(1)}" width="${bar.toFixed(1)}" height="${y(negative).toFixed(1)}"></rect><rect class="bar-positive" x="${(x + slot / 2).toFixed(1)}" y="${(base - y(positive)).toFixed(1)}" width="${bar.toFixed(1)}" height="${y(positive).toFixed(1)}"></rect></g>`;
})}
</svg>`;
}

/** Sessions per label word per bucket, stacked in the legend's order, each label its own fill. */
function labelsChart(
  buckets: readonly CorpusBucket[],
  worded: readonly string[],
  widthDays: 1 | 7,
): Html {
  const total = (bucket: CorpusBucket) =>
    worded.reduce((sum, label) => sum + (bucket.labels[label] ?? 0), 0);
  const max = Math.max(0, ...buckets.map(total));
  const slot = innerWidth / buckets.length;
  const y = (value: number) => (max === 0 ? 0 : (value / max) * innerHeight);
  return html`<svg class="chart" id="labels-chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Sessions per ${widthDays === 7 ? 'week' : 'day'} by label, ${buckets[0]?.day ?? ''} to ${buckets[buckets.length - 1]?.day ?? ''}; the table below lists every count">
${labelPatterns}${frame(buckets, String(max), slot, widthDays)}
${buckets.map((bucket, index) => {
  const x = pad.left + index * slot;
  if (bucket.valence === null) return unreadBand(bucket, x, slot, widthDays);
  let base = height - pad.bottom;
  return html`<g class="bucket${bucket.partial ? ' bucket--today' : ''}" data-day="${bucket.day}"><title>${bucketName(bucket, widthDays)}: ${
    worded
      .filter((label) => (bucket.labels[label] ?? 0) > 0)
      .map((label) => `${label} ${bucket.labels[label]}`)
      .join(', ') || 'no label word'
  }${bucket.unreadable > 0 ? ` (${bucket.unreadable} unreadable)` : ''}</title>${worded.map(
    (label, order) => {
      const n = bucket.labels[label] ?? 0;
      if (n === 0) return '';
      base -= y(n);
      return html`<rect fill="url(#label-fill-${order % labelFills})" x="${(x + 0.5).toFixed(1)}" y="${base.toFixed(1)}" width="${Math.max(1, slot - 1).toFixed(1)}" height="${y(n).toFixed(1)}"></rect>`;
    },
  )}</g>`;
})}
</svg>`;
}

/** A bucket's value in the tables: unknown when none of its sessions could be read. */
function cell(
  bucket: CorpusBucket,
  value: (valence: { positive: number; negative: number }) => string,
): string {
  return bucket.valence === null ? 'unknown' : value(bucket.valence);
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
  buckets: CorpusBuckets,
  window: { readonly days: number | undefined; readonly text: string },
  /** Every source not read whole and why: `not_read_whole` of the CLI's `--json`. */
  notReadWhole: readonly ReadProblem[] = [],
): Html {
  const labels = Object.entries(corpus.labels ?? {}).filter(([, n]) => n > 0);
  const worded = labels.filter(([label]) => label !== 'neutral').map(([label]) => label);
  return html`<h1>Corpus</h1>
${windowControl(window.days)}
<p class="note">${window.text}. The same readout as <code>mecha sessions appraise --json</code>, derived from your records.</p>
<h2>Valence</h2>
<p id="corpus-valence" data-positive="${corpus.valence.positive ?? ''}" data-negative="${corpus.valence.negative ?? ''}">positive ${corpus.valence.positive === null ? 'unknown' : corpus.valence.positive.toFixed(1)}, negative ${corpus.valence.negative === null ? 'unknown' : corpus.valence.negative.toFixed(1)}${corpus.valence.partial ? html` (partial: ${partialReason(corpus, notReadWhole)})` : ''}</p>${notReadWholeHtml(notReadWhole)}
<h2>Valence per ${buckets.width === 7 ? 'week' : 'day'}</h2>
${
  buckets.buckets.length === 0
    ? html`<p class="note">No sessions in this window.</p>`
    : html`<div class="legend"><span class="key key-negative">negative (left, solid)</span><span class="key key-positive">positive (right, outlined)</span><span class="key key-unread">? none could be read (unknown, not 0)</span><span class="key key-today">today, so far (shaded)</span></div>
${valenceChart(buckets.buckets, buckets.width)}
<details><summary>Valence per ${buckets.width === 7 ? 'week' : 'day'} as a table</summary><div class="table-wrap" role="region" aria-label="Valence as a table" tabindex="0"><table id="valence-table"><thead><tr><th scope="col">${buckets.width === 7 ? 'Week of' : 'Day'}</th><th scope="col" class="number">Negative</th><th scope="col" class="number">Positive</th><th scope="col" class="number">Sessions</th></tr></thead><tbody>${buckets.buckets.map(
        (bucket) =>
          html`<tr data-day="${bucket.day}" data-negative="${bucket.valence?.negative ?? ''}" data-positive="${bucket.valence?.positive ?? ''}"><td>${bucket.day}${bucket.partial ? ' (today, so far)' : ''}</td><td class="number">${cell(bucket, (v) => v.negative.toFixed(1))}</td><td class="number">${cell(bucket, (v) => v.positive.toFixed(1))}</td><td class="number">${bucket.sessions}${bucket.unreadable > 0 ? ` (${bucket.unreadable} unreadable)` : ''}</td></tr>`,
      )}</tbody></table></div></details>`
}
<h2>Labels over time</h2>
${
  worded.length === 0 || buckets.buckets.length === 0
    ? html`<p class="note">No run earned a label word in this window.</p>`
    : html`<ul class="legend" id="labels-legend">${worded.map(
        (label, index) =>
          html`<li data-label="${label}"><svg width="16" height="16" aria-hidden="true"><rect width="16" height="16" fill="url(#label-fill-${index % labelFills})" class="swatch"></rect></svg>${label}</li>`,
      )}</ul>${labelsChart(buckets.buckets, worded, buckets.width)}<details><summary>Labels per ${buckets.width === 7 ? 'week' : 'day'} as a table</summary><div class="table-wrap" role="region" aria-label="Labels as a table" tabindex="0"><table><thead><tr><th scope="col">${buckets.width === 7 ? 'Week of' : 'Day'}</th>${worded.map((label) => html`<th scope="col" class="number">${label}</th>`)}</tr></thead><tbody>${buckets.buckets.map((bucket) => html`<tr><td>${bucket.day}${bucket.partial ? ' (today, so far)' : ''}</td>${worded.map((label) => html`<td class="number">${bucket.valence === null ? 'unknown' : (bucket.labels[label] ?? 0)}</td>`)}</tr>`)}</tbody></table></div></details>`
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
