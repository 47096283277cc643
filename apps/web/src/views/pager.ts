import { html } from 'hono/html';
import type { Html } from './layout.js';

/** Newer/older links and page numbers for a paginated list. */
export function pagerHtml(
  label: string,
  page: number,
  pages: number,
  link: (page: number) => string,
): Html {
  if (pages <= 1) return html``;
  const numbers = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((number) => number >= 1 && number <= pages)
    .sort((a, b) => a - b);
  return html`<nav class="pager" aria-label="${label}">${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous</a>` : ''}${numbers.map((number) => (number === page ? html`<span aria-current="page">${number}</span>` : html`<a href="${link(number)}">${number}</a>`))}${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next</a>` : ''}</nav>`;
}
