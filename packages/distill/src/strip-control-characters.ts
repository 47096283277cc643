// C0 and C1 controls and DEL, plus the bidirectional formatting characters that can make a
// terminal show text in another order than it is stored ("Trojan Source").
const layout = /[\t\n\r\v\f]+/g;
const controls = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/**
 * Makes model-written text safe to print on a terminal: line breaks and tabs become one space,
 * and every other control or bidirectional formatting character is removed.
 */
export function stripControlCharacters(text: string): string {
  return text.replace(layout, ' ').replace(controls, '');
}
