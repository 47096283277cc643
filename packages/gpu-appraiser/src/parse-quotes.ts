import { couldNotRead, readValue, type ValueRead } from '@mecha/errors';
import { isWellFormed } from './json-text.js';
import { maxQuotes } from './quote-grammar.js';

/** A parse refused: the reason, as a `ValueRead` that could not be read. */
const refuse = couldNotRead;

/**
 * Re-checks call 1's answer without the grammar: exactly a JSON array in the one spelling (no
 * whitespace, canonical escapes), at most eight quotes, each a non-empty, unique, exact
 * substring of the source. Anything else is refused with the reason.
 */
export function parseQuotes(text: string, source: string): ValueRead<readonly string[]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('call 1 did not return JSON');
  }
  if (!Array.isArray(value)) return refuse('call 1 did not return an array');
  if (JSON.stringify(value) !== text) return refuse('call 1 is not in the one JSON spelling');
  if (value.length > maxQuotes) return refuse(`call 1 returned more than ${maxQuotes} quotes`);
  const seen = new Set<string>();
  for (const quote of value) {
    if (typeof quote !== 'string') return refuse('a quote is not a string');
    if (quote === '') return refuse('a quote is empty');
    if (!isWellFormed(quote)) return refuse('a quote is not well-formed text');
    if (!source.includes(quote)) return refuse('a quote is not an exact substring of the source');
    if (seen.has(quote)) return refuse('a quote is repeated');
    seen.add(quote);
  }
  return readValue(value as string[]);
}
