import { stripControlLines } from '@mecha/appraisal-core';
import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { boardStyle } from './board-style.js';

/** Server-rendered HTML, escaped wherever text is interpolated. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The board's pages, in the order the navigation lists them. */
export const pages = [
  { path: '/', name: 'Runs' },
  { path: '/board', name: 'Board' },
  { path: '/drafts', name: 'Drafts' },
  { path: '/questions', name: 'Questions' },
  { path: '/charter', name: 'Charter' },
  { path: '/corpus', name: 'Corpus' },
  { path: '/successes', name: 'Successes' },
  { path: '/honesty', name: 'Honesty' },
  { path: '/review', name: 'Graph review' },
] as const;

/** What a surface's act came to, shown at the top of the page it returns. */
export interface Said {
  readonly ok: boolean;
  readonly lines: readonly string[];
  /** The owner's words the act kept (an edit, an answer), shown as written, escaped. */
  readonly words?: string;
}

/** A page: its title, which navigation entry it is, and its content. */
export interface PageOptions {
  readonly title: string;
  readonly current: (typeof pages)[number]['path'] | null;
  readonly content: Html;
  /** The latest reading was negative: the logo is outlined. */
  readonly negative: boolean;
  readonly said?: Said;
  /** `runs` on the runs page: the script listens for finished runs. */
  readonly live?: 'runs';
  /** How many drafts and questions wait on the owner, shown in the navigation (null: unknown). */
  readonly waiting?: { readonly drafts: number | null; readonly questions: number | null };
  /** Whether a live run may be put at the top of the list (page 1 with no filter). */
  readonly liveInsert?: boolean;
}

/** The one hidden field every form carries. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

/** The message an act left, or nothing. */
export function saidHtml(said: Said | undefined): Html {
  if (said === undefined) return html``;
  return html`<div class="said ${said.ok ? '' : 'said--refused'}" role="status" id="said">${said.lines.map((line) => html`<p>${line}</p>`)}${said.words === undefined ? '' : html`<pre class="said__words">${stripControlLines(said.words)}</pre>`}</div>`;
}

/** A tab's count in the navigation: drafts and questions waiting, or `?` when unknown. */
function navCount(path: string, waiting: PageOptions['waiting']): Html {
  if (waiting === undefined) return html``;
  const count =
    path === '/drafts' ? waiting.drafts : path === '/questions' ? waiting.questions : undefined;
  if (count === undefined) return html``;
  return html` <span class="count" data-count="${path.slice(1)}">(${count === null ? '?' : count}<span class="visually-hidden"> waiting</span>)</span>`;
}

/** The keyboard shortcuts the board's script adds, as every page lists them. */
export const shortcuts: readonly (readonly [keys: string, what: string])[] = [
  ['j / k', 'the next / previous item of the list (runs, tasks, drafts, questions)'],
  ['n / p', 'the next / previous page'],
  ['/', 'the search box (runs)'],
  ['d / x / o', 'Done / Drop / Reopen the selected task (board)'],
  ['s / e / r', 'Send the selected draft / edit its box / Reject it (drafts)'],
  ['a', 'type an answer to the selected question (questions)'],
  ['?', 'this list'],
];

const keysHelp = html`<details class="keys" id="keys"><summary>Keyboard shortcuts</summary>
<p class="note">Not while you type in a field, and never with Ctrl, Alt or ⌘ held.</p>
<dl>${shortcuts.map(([keys, what]) => html`<dt><kbd>${keys}</kbd></dt><dd>${what}</dd>`)}</dl></details>`;

/** The whole document around a page: header with logo and navigation, the page, the script. */
export function layout(options: PageOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · mecha</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<style>${raw(boardStyle)}</style>
<script src="/assets/board.js" defer></script>
</head>
<body${raw(options.live === undefined ? '' : ` data-live="${options.live}"`)}${raw(options.liveInsert === true ? ' data-live-insert="true"' : '')}>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="logo${options.negative ? ' logo--negative' : ''}" href="/" aria-label="mecha board home${options.negative ? ' (latest reading negative)' : ''}"><svg viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="9"></circle></svg>mecha</a>
<nav aria-label="Pages"><ul>${pages.map(
    (page) =>
      html`<li><a href="${page.path}"${raw(page.path === options.current ? ' aria-current="page"' : '')}>${page.name}${navCount(page.path, options.waiting)}</a></li>`,
  )}</ul></nav>
</header>
<main id="main">
${saidHtml(options.said)}${options.live === undefined ? '' : html`<p class="live" id="live-indicator" data-state="off"><span class="live__dot" aria-hidden="true"></span> <span class="live__text">Live updates need the board's script; reload to see new runs.</span></p>`}
${options.content}
<p id="live-status" class="note" role="status" aria-live="polite"></p>
</main>
<footer class="foot">${keysHelp}</footer>
</body>
</html>`;
}
