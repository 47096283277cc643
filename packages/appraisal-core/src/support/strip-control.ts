// Line breaks and tabs (runs of them) become one space, so a record cannot fake a line of a
// readout; C0/C1 controls, DEL, and the format characters that reorder or hide text (bidi
// marks, embeddings, overrides and isolates, zero-width characters, the BOM) are removed.
const breaks = /[\t\n\r\v\f\u2028\u2029]+/gu;
const controls = /[\p{Cc}\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;

/**
 * Makes text safe to show on any surface: nothing read from a record (a model's prose about a
 * session that may have held a stranger's text, a hook's output) can move the cursor,
 * recolour a terminal, reorder what is shown, or fake a line of the readout.
 */
export function stripControl(text: string): string {
  return text.replace(breaks, ' ').replace(controls, '');
}

/** {@link stripControl} applied to every string inside a JSON-like value, keys included. */
export function stripControlDeep<T>(value: T): T {
  if (typeof value === 'string') return stripControl(value) as T;
  if (Array.isArray(value)) return value.map((item) => stripControlDeep(item)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [stripControl(key), stripControlDeep(item)]),
    ) as T;
  }
  return value;
}

/**
 * {@link stripControl} for text whose lines matter (an edited draft, an owner's answer): each
 * line is made safe on its own and the lines are joined with `\n`, so a surface can show the
 * words as paragraphs while nothing in them can move the cursor or recolour a terminal.
 */
export function stripControlLines(text: string): string {
  return text
    .split(/\r\n|[\r\n]/u)
    .map((line) => stripControl(line))
    .join('\n');
}
