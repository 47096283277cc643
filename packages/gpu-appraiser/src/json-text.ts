/**
 * The one JSON spelling of a string the grammars allow and the parsers compare against:
 * `JSON.stringify`'s (`\"`, `\\`, `\n`-style escapes for controls, `\u00XX` for the rest,
 * every other character as itself). A model can write a quote only this way.
 */
export function jsonString(text: string): string {
  return JSON.stringify(text);
}

/** One character (code point) of a source as it appears inside a JSON string. */
export function jsonChar(char: string): string {
  return JSON.stringify(char).slice(1, -1);
}

/** `text` as a GBNF string literal (llama.cpp's escapes: `\\`, `\"`, `\n`, `\r`, `\t`, `\xHH`). */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** Whether `text` is well-formed UTF-16 (no lone surrogate), so it has a UTF-8 spelling. */
export function isWellFormed(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      index += 1;
    } else if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}

/** UTF-8 byte length. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
