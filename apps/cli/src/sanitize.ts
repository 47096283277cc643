// C0 and C1 controls, DEL, and the Unicode format characters that reorder or hide text
// (bidi embeddings, overrides and isolates, zero-width marks, the BOM).
const controls =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;
const breaks = /[\t\n]/gu;

/**
 * Makes text safe to print: control and format characters are removed, and tabs and newlines
 * become spaces, so nothing read from a record can move the cursor, recolour the terminal or
 * fake a line of the readout. Applied to every field of a text appraisal, which is a model's
 * prose about a session that may have held a stranger's text.
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
