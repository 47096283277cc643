import { emptyReviewQueueHint } from '@mecha/distill';
import type { ValueRead } from '@mecha/errors';
import { html } from 'hono/html';
import { csrfField, type Html } from '../views/layout.js';

type Json = unknown;

/** One of the graph's review lists as the board got it, or why it could not be read. */
export type GraphAnswer = ValueRead<Record<string, unknown>>;

function items(answer: GraphAnswer): readonly Record<string, Json>[] | string {
  if (answer.state === 'unreadable') return answer.reason;
  const list = answer.value.items;
  return Array.isArray(list)
    ? list.filter((item): item is Record<string, Json> => typeof item === 'object' && item !== null)
    : 'the graph answered in a shape the board does not know';
}

function text(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  if (
    typeof value === 'object' &&
    'subject' in value &&
    'predicate' in value &&
    'object' in value
  ) {
    const triple = value as { subject: Json; predicate: Json; object: Json };
    return `${text(triple.subject)} ${text(triple.predicate)} ${text(triple.object)}`;
  }
  return JSON.stringify(value);
}

function sourcesOf(item: Record<string, Json>): readonly { source: string; trust: number }[] {
  const provenance = item.provenance as { sources?: Json } | undefined;
  const sources = Array.isArray(provenance?.sources) ? provenance.sources : [];
  return sources.flatMap((entry: Json) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { source, trust } = entry as { source?: Json; trust?: Json };
    return typeof source === 'string'
      ? [{ source, trust: typeof trust === 'number' ? trust : 0 }]
      : [];
  });
}

function factHtml(item: Record<string, Json>, csrf: string): Html {
  const id = text(item.id);
  const provenance = item.provenance as
    | { taint?: { clean?: Json; untrusted?: Json; unknown?: Json } }
    | undefined;
  const untrusted =
    Number(provenance?.taint?.untrusted ?? 0) + Number(provenance?.taint?.unknown ?? 0);
  return html`<li id="fact-${id}" data-fact="${id}">
<div class="run__meta">fact ${id} · salience ${text(item.salience)} · trust ${text(item.trust)}<br>${
    sourcesOf(item)
      .map((source) => source.source)
      .join(', ') || 'no source'
  }${untrusted > 0 ? html` <span class="taint">from third-party content</span>` : ''}</div>
<div class="run__answer">${text(item.text)}</div>
<div class="acts">
<form method="post" action="/review/facts/${id}">${csrfField(csrf)}<button type="submit" name="decision" value="accept">Approve</button> <button type="submit" name="decision" value="reject">Deny</button></form>
${sourcesOf(item).map(
  (source) =>
    html`<form method="post" action="/review/redact" data-confirm="Redact every episode and correction from ${source.source}?">${csrfField(csrf)}<input type="hidden" name="source" value="${source.source}"><button type="submit">Redact source ${source.source}</button></form>`,
)}
</div></li>`;
}

function correctionHtml(item: Record<string, Json>, csrf: string): Html {
  const id = text(item.id);
  const candidates = Array.isArray(item.candidates)
    ? item.candidates.map((candidate) => text(candidate))
    : [];
  const provenance = item.provenance as { source?: Json } | undefined;
  const source = typeof provenance?.source === 'string' ? provenance.source : undefined;
  return html`<li id="correction-${id}" data-correction="${id}">
<div class="run__meta">correction ${id} · ${text(item.review_reason) || 'waiting'}${source === undefined ? '' : html`<br>from ${source}`}</div>
<div class="run__answer">Wrong: ${text(item.wrong)}${item.right === null || item.right === undefined ? html` (deny it)` : html`<br>Right: ${text(item.right)}`}${item.about === null || item.about === undefined ? '' : html`<br>About: ${text(item.about)}`}</div>
<div class="acts">
<form method="post" action="/review/corrections/${id}">${csrfField(csrf)}<label>The belief it meant<select name="fact_id">${candidates.map((candidate) => html`<option value="${candidate}">fact ${candidate}</option>`)}<option value="">none: dismiss it</option></select></label><button type="submit">Resolve</button></form>
${source === undefined ? '' : html`<form method="post" action="/review/redact" data-confirm="Redact every episode and correction from ${source}?">${csrfField(csrf)}<input type="hidden" name="source" value="${source}"><button type="submit">Redact source ${source}</button></form>`}
</div></li>`;
}

/** The graph's review queue: candidate facts by salience, then corrections no belief matched. */
export function reviewPage(facts: GraphAnswer, corrections: GraphAnswer, csrf: string): Html {
  const factItems = items(facts);
  const correctionItems = items(corrections);
  return html`<h1>Graph review</h1>
<p class="note">Candidate facts the distiller staged, most salient first. Approve makes one a belief; Deny closes it and remembers the denial, so it is never proposed again; Redact takes out everything from a source. Everything here may hold a stranger's text, shown as text.</p>
<h2>Candidate facts</h2>
${typeof factItems === 'string' ? html`<p class="note">${factItems}</p>` : factItems.length === 0 ? html`<p class="note">${emptyReviewQueueHint}</p>` : html`<ul class="items" id="facts">${factItems.map((item) => factHtml(item, csrf))}</ul>`}
<h2>Corrections no single belief matched</h2>
${typeof correctionItems === 'string' ? html`<p class="note">${correctionItems}</p>` : correctionItems.length === 0 ? html`<p class="note">None.</p>` : html`<ul class="items" id="corrections">${correctionItems.map((item) => correctionHtml(item, csrf))}</ul>`}`;
}
