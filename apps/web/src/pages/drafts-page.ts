import { type OutboxRecord, type QuestionRecord, stripControlLines } from '@mecha/appraisal-core';
import { draftAsShown, type QuestionWordsRead } from '@mecha/stores';
import { html } from 'hono/html';
import { taintChipHtml } from '../views/chip.js';
import { csrfField, type Html } from '../views/layout.js';
import { pagerHtml } from '../views/pager.js';

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

function draftHtml(draft: Staged, csrf: string, now: Date): Html {
  return html`<li id="draft-${draft.draft_id}" data-draft="${draft.draft_id}">
<div class="run__meta">${draft.draft_id}<br>${draft.tool} · from <a href="/sessions/${draft.session_id}">${draft.session_id}</a>${draft.goal === undefined ? '' : html` · for ${draft.goal.kind}${draft.goal.id === undefined ? '' : ` ${draft.goal.id}`}`}<br>staged ${draft.at.replace('T', ' ').slice(0, 16)}${waitFlag(draft.at, now, 'waiting')} ${taintChipHtml(draft.taint === 'third_party')}</div>
<div class="run__answer">${draft.text === undefined ? html`<span class="note">The draft's text was not recorded.</span>` : html`<pre>${stripControlLines(draft.text)}</pre>`}</div>
<div class="acts">
<form method="post" action="/drafts/${draft.draft_id}" aria-label="Send ${draft.draft_id}">${csrfField(csrf)}
<label>The draft as it will be sent: change it here to send your words<textarea name="text" rows="3" cols="40" data-shown="" data-key="e" aria-keyshortcuts="e">
${draftAsShown(draft.text ?? '')}</textarea></label>
<p class="note" id="send-says-${draft.draft_id}">Send sends the box: as written while you leave it unchanged, your edit once you change it.</p>
<button type="submit" name="verdict" value="send" aria-describedby="send-says-${draft.draft_id}" data-key="s" aria-keyshortcuts="s">Send</button>
<button type="submit" name="verdict" value="send_edited">Send my edit</button></form>
<form method="post" action="/drafts/${draft.draft_id}" aria-label="Reject ${draft.draft_id}">${csrfField(csrf)}
<label>Reason (optional)<input name="reason" size="24" maxlength="4000"></label>
<button type="submit" name="verdict" value="reject" data-key="r" aria-keyshortcuts="r">Reject</button></form>
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

function questionHtml(
  question: Parked,
  words: QuestionWordsRead | undefined,
  csrf: string,
  now: Date,
): Html {
  const asked = words?.state === 'asked';
  return html`<li id="question-${question.question_id}" data-question="${question.question_id}">
<div class="run__meta">${question.question_id}<br>${question.purpose === 'goal' ? 'confirm the goal' : 'a question'} · from <a href="/sessions/${question.session_id}">${question.session_id}</a>${question.goal === undefined ? '' : html` · about ${question.goal.kind}${question.goal.id === undefined ? '' : ` ${question.goal.id}`}`}<br>parked ${question.at.replace('T', ' ').slice(0, 16)}${waitFlag(question.at, now, 'parked')}</div>
<div class="run__answer">${askedHtml(question.question_id, words)}</div>
<form class="acts" method="post" action="/questions/${question.question_id}/answer" aria-label="Answer ${question.question_id}">${csrfField(csrf)}
<label>Your answer<textarea name="answer" rows="2" cols="40" required data-key="a" aria-keyshortcuts="a"${asked ? html` aria-describedby="asked-${question.question_id}"` : ''}></textarea></label>
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

/** Drafts or questions to a page. */
export const itemsPerPage = 25;

/** How long a draft or a question may wait before the page flags it as waiting long. */
export const longWaitMs = 2 * 86_400_000;

/** "waiting 3 days" for an item staged or parked longer ago than `longWaitMs`; else nothing. */
function waitFlag(at: string, now: Date, word: string): Html {
  const waited = now.getTime() - Date.parse(at);
  if (!(waited > longWaitMs)) return html``;
  const days = Math.floor(waited / 86_400_000);
  return html` <span class="flag" data-long-wait="">${word} ${days} days</span>`;
}

function pageOf<T>(
  items: readonly T[],
  page: number,
): { shown: readonly T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / itemsPerPage));
  const at = Math.min(page, pages);
  return { shown: items.slice((at - 1) * itemsPerPage, at * itemsPerPage), page: at, pages };
}

/** The outbox's pending drafts, a page at a time: Send (the box), Send my edit, Reject. */
export function draftsPage(
  drafts: readonly Staged[] | string,
  csrf: string,
  page = 1,
  now: Date = new Date(),
): Html {
  const listed = typeof drafts === 'string' ? undefined : pageOf(drafts, page);
  const long =
    typeof drafts === 'string'
      ? 0
      : drafts.filter((draft) => now.getTime() - Date.parse(draft.at) > longWaitMs).length;
  return html`<h1>Drafts waiting on you</h1>
<p class="note">Your verdicts are recorded as yours (the owner). The text of a draft or of an edit is shown as written, never run. Send sends the draft's box: as written while you leave it unchanged, your words once you change it. Your edited words are kept in the outbox: they are what your harness sends.</p>
${
  typeof drafts === 'string'
    ? html`<p class="said said--refused">${drafts}</p>`
    : drafts.length === 0
      ? html`<p class="note">None.</p>`
      : html`<p>${drafts.length} draft${drafts.length === 1 ? '' : 's'} waiting${listed !== undefined && listed.pages > 1 ? `, page ${listed.page} of ${listed.pages}, oldest first` : ''}${long === 0 ? '' : html`; <span class="flag">${long} waiting over ${longWaitMs / 86_400_000} days</span>`}.</p>
<ul class="items">${listed?.shown.map((draft) => draftHtml(draft, csrf, now))}</ul>
${listed === undefined ? '' : pagerHtml('Pages of drafts', listed.page, listed.pages, (to) => (to > 1 ? `/drafts?page=${to}` : '/drafts'))}`
}`;
}

/** The parked questions, a page at a time, each with its words and an Answer box. */
export function questionsPage(
  questions: readonly Parked[] | string,
  csrf: string,
  /** Each shown question's words, by question id (`readQuestionWords`). */
  asked: ReadonlyMap<string, QuestionWordsRead>,
  page = 1,
  now: Date = new Date(),
): Html {
  const listed = typeof questions === 'string' ? undefined : pageOf(questions, page);
  const long =
    typeof questions === 'string'
      ? 0
      : questions.filter((question) => now.getTime() - Date.parse(question.at) > longWaitMs).length;
  return html`<h1>Parked questions</h1>
<p class="note">Each question is shown as the run asked it: the last message of the run that parked it, shown as text and never run. Your answer is kept with the question: it is what the parked session resumes with when your harness picks it up.</p>
${
  typeof questions === 'string'
    ? html`<p class="said said--refused">${questions}</p>`
    : questions.length === 0
      ? html`<p class="note">None.</p>`
      : html`<p>${questions.length} question${questions.length === 1 ? '' : 's'} parked${listed !== undefined && listed.pages > 1 ? `, page ${listed.page} of ${listed.pages}, oldest first` : ''}${long === 0 ? '' : html`; <span class="flag">${long} parked over ${longWaitMs / 86_400_000} days</span>`}.</p>
<ul class="items">${listed?.shown.map((question) => questionHtml(question, asked.get(question.question_id), csrf, now))}</ul>
${listed === undefined ? '' : pagerHtml('Pages of questions', listed.page, listed.pages, (to) => (to > 1 ? `/questions?page=${to}` : '/questions'))}`
}`;
}

/** The questions a page of `/questions` shows, so only their words are read. */
export function questionsOnPage(questions: readonly Parked[], page: number): readonly Parked[] {
  return pageOf(questions, page).shown;
}
