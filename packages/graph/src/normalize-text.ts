import type { JsonValue } from './content-hash.js';

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Replaces lone UTF-16 surrogates with U+FFFD. SQLite stores UTF-8, which cannot hold them, so
 * without this the text read back would differ from the text that was hashed.
 */
export function wellFormed(text: string): string {
  return text.replace(loneSurrogate, '\uFFFD');
}

function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/**
 * The cleaned form of a name (an entity, a predicate, a type): control characters become spaces,
 * runs of whitespace collapse, ends are trimmed, Unicode is NFC. Bodies are never cleaned this way.
 */
export function cleanName(text: string): string {
  let out = '';
  for (const char of wellFormed(text)) {
    out += isControl(char.codePointAt(0) ?? 0) ? ' ' : char;
  }
  return out.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** The comparison form of a name: cleaned and lower-cased, so "Priya  Nair" matches "priya nair". */
export function nameKey(text: string): string {
  return cleanName(text).toLowerCase();
}

/** The identity of a fact: its three parts in comparison form. */
export function factKey(subject: string, predicate: string, object: string): string {
  return JSON.stringify([nameKey(subject), nameKey(predicate), nameKey(object)]);
}

/**
 * A JSON copy of `value` with well-formed strings (keys too), `undefined` members dropped and
 * non-finite numbers as null. Refuses what JSON cannot carry and nesting past `maxDepth`.
 */
export function toJsonValue(value: unknown, maxDepth: number): JsonValue {
  const copy = (inner: unknown, depth: number): JsonValue => {
    if (depth > maxDepth) throw new RangeError(`nested deeper than ${maxDepth} levels`);
    if (inner === null) return null;
    switch (typeof inner) {
      case 'string':
        return wellFormed(inner);
      case 'number':
        return Number.isFinite(inner) ? inner : null;
      case 'boolean':
        return inner;
      case 'object': {
        if (Array.isArray(inner)) return inner.map((item) => copy(item ?? null, depth + 1));
        // No prototype, so a "__proto__" key stays a plain member instead of a setter call.
        const out: Record<string, JsonValue> = Object.create(null);
        for (const [key, member] of Object.entries(inner)) {
          if (member === undefined) continue;
          out[wellFormed(key)] = copy(member, depth + 1);
        }
        return out;
      }
      default:
        throw new TypeError(`a ${typeof inner} is not JSON`);
    }
  };
  return copy(value, 0);
}
