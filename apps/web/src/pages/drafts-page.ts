import { type OutboxRecord, type QuestionRecord, stripControlLines } from '@mecha/appraisal-core';
import { draftAsShown, type QuestionWordsRead } from '@mecha/stores';
import { html } from 'hono/html';
import { taintChipHtml } from '../views/chip.js';
import { csrfField, type Html } from '../views/layout.js';

type Staged = Extract<OutboxRecord, { readonly type: 'staged' }>;
type Parked = Extract<QuestionRecord, { readonly type: 'parked' }>;

/** Drafts still waiting on the owner: staged, with no outcome yet. */
export function pendingDrafts(records: readonly OutboxRecord[]): readonly Staged[] {
  const decided = new Set(
    records.flatMap((record) => (record.type === 'outcome' ? [record.draft_id] : [])),
  );
  return records.filter(
    (record): record is Staged => record.type === 'staged' && !decided.has(record.draft_id),
  );
}

/** Questions still parked: neither answered nor abandoned. */
export function parkedQuestions(records: readonly QuestionRecord[]): readonly Parked[] {
  const settled = new Set(
    records.flatMap((record) => (record.type === 'parked' ? [] : [record.question_id])),
  );
  return records.filter(
    (record): record is Parked => record.type === 'parked' && !settled.has(record.question_id),
  );
}

function draftHtml(draft: Staged, csrf: string): Html {
  return html`<li id="draft-${draft.draft_id}" data-draft="${draft.draft_id}">
<div class="run__meta">${draft.draft_id}<br>${draft.tool} · from <a href="/sessions/${draft.session_id}">${draft.session_id}</a>${draft.goal === undefined ? '' : html` · for ${draft.goal.kind}${draft.goal.id === undefined ? '' : ` ${draft.goal.id}`}`}<br>staged ${draft.at.replace('T', ' ').slice(0, 16)} ${taintChipHtml(draft.taint === 'third_party')}</div>
<div class="run__answer">${draft.text === undefined ? html`<span class="note">The draft's text was not recorded.</span>` : html`<pre>${stripControlLines(draft.text)}</pre>`}</div>
<div class="acts">
<form method="post" action="/drafts/${draft.draft_id}" aria-label="Send ${draft.draft_id}">${csrfField(csrf)}
<label>The draft as it will be sent: change it here to send your words<textarea name="text" rows="3" cols="40" data-shown="">
${draftAsShown(draft.text ?? '')}</textarea></label>
<p class="note" id="send-says-${draft.draft_id}">Send sends the box: as written while you leave it unchanged, your edit once you change it.</p>
<button type="submit" name="verdict" value="send" aria-describedby="send-says-${draft.draft_id}">Send</button>
<button type="submit" name="verdict" value="send_edited">Send my edit</button></form>
<form method="post" action="/drafts/${draft.draft_id}" aria-label="Reject ${draft.draft_id}">${csrfField(csrf)}
<label>Reason (optional)<input name="reason" size="24" maxlength="4000"></label>
<button type="submit" name="verdict" value="reject">Reject</button></form>
</div>
</li>`;
}

/** How much of a question shows before "Show the whole question". */
const questionPreviewCharacters = 600;

/** The question's words beside its box, shortened with the rest a click away; or why not shown. */
function askedHtml(questionId: string, words: QuestionWordsRead | undefined): Html {
  if (words === undefined || words.state === 'not_found') {
    return html`<p class="note">The question's words could not be found.</p>`;
  }
  if (words.state === 'unreadable') {
    return html`<p class="note">The question's words could not be read: ${words.reason}.</p>`;
  }
  if (words.state === 'not_recorded') {
    return html`<p class="note">The question's words were not recorded: ${words.reason}.</p>`;
  }
  const text = stripControlLines(words.text);
  const characters = Array.from(text);
  const short = characters.length > questionPreviewCharacters;
  const skipped =
    words.skipped === 0
      ? ''
      : html`<p class="note">${words.skipped} damaged line${words.skipped === 1 ? ' of the transcript was' : 's of the transcript were'} skipped: a later message may be on one.</p>`;
  return html`<div class="question">
<p class="note">The run asked (the last message of the run that parked it, at ${words.at.replace('T', ' ').slice(0, 16)}) ${taintChipHtml(words.taint === 'third_party')}</p>
<pre class="question__words" id="asked-${questionId}">${short ? `${characters.slice(0, questionPreviewCharacters).join('')}…` : text}</pre>
${short ? html`<details><summary>Show the whole question (${characters.length.toLocaleString('en')} characters)</summary><pre>${text}</pre></details>` : ''}${skipped}
</div>`;
}

function questionHtml(question: Parked, words: QuestionWordsRead | undefined, csrf: string): Html {
  const asked = words?.state === 'asked';
  return html`<li id="question-${question.question_id}" data-question="${question.question_id}">
<div class="run__meta">${question.question_id}<br>${question.purpose === 'goal' ? 'confirm the goal' : 'a question'} · from <a href="/sessions/${question.session_id}">${question.session_id}</a>${question.goal === undefined ? '' : html` · about ${question.goal.kind}${question.goal.id === undefined ? '' : ` ${question.goal.id}`}`}</div>
<div class="run__answer">${askedHtml(question.question_id, words)}</div>
<form class="acts" method="post" action="/questions/${question.question_id}/answer" aria-label="Answer ${question.question_id}">${csrfField(csrf)}
<label>Your answer<textarea name="answer" rows="2" cols="40" required${asked ? html` aria-describedby="asked-${question.question_id}"` : ''}></textarea></label>
<button type="submit">Answer</button></form>
</li>`;
}

/**
 * What Send means for the box a draft's form sent back: the draft as written while the box is
 * as the page showed it (line endings aside), the owner's edit once it was changed. The box is
 * filled with `draftAsShown`, so an untouched box comes back as exactly that.
 */
export function sendChoice(
  box: string | undefined,
  draftText: string | undefined,
): { readonly verdict: 'send' } | { readonly verdict: 'send_edited'; readonly text: string } {
  if (box === undefined) return { verdict: 'send' };
  const kept = box.replace(/\r\n?/gu, '\n');
  return kept === draftAsShown(draftText ?? '')
    ? { verdict: 'send' }
    : { verdict: 'send_edited', text: box };
}

/** The outbox's pending drafts (Send, Edit then send, Reject) and the parked questions. */
export function draftsPage(
  drafts: readonly Staged[] | string,
  questions: readonly Parked[] | string,
  csrf: string,
  /** Each parked question's words, by question id (`readQuestionWords`). */
  asked: ReadonlyMap<string, QuestionWordsRead> = new Map(),
): Html {
  return html`<h1>Drafts and questions</h1>
<p class="note">Your verdicts are recorded as yours (the owner). The text of a draft or of an edit is shown as written, never run. Send sends the draft's box: as written while you leave it unchanged, your words once you change it. Your edited words are kept in the outbox: they are what your harness sends.</p>
<h2>Drafts waiting on you</h2>
${
  typeof drafts === 'string'
    ? html`<p class="note">${drafts}</p>`
    : drafts.length === 0
      ? html`<p class="note">None.</p>`
      : html`<ul class="items">${drafts.map((draft) => draftHtml(draft, csrf))}</ul>`
}
<h2>Parked questions</h2>
<p class="note">Each question is shown as the run asked it: the last message of the run that parked it, shown as text and never run. Your answer is kept with the question: it is what the parked session resumes with when your harness picks it up.</p>
${
  typeof questions === 'string'
    ? html`<p class="note">${questions}</p>`
    : questions.length === 0
      ? html`<p class="note">None.</p>`
      : html`<ul class="items">${questions.map((question) => questionHtml(question, asked.get(question.question_id), csrf))}</ul>`
}`;
}
