// C0 and C1 controls, DEL, and the Unicode format characters that reorder or hide text.
const controls =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;
const breaks = /[\t\n]/gu;

/** Makes a line a hook printed safe to show on any surface: no control or format characters. */
export function stripControl(text: string): string {
  return text.replace(breaks, ' ').replace(controls, '');
}
