import { gbnfLiteral, jsonChar } from './json-text.js';

/** Call 1 may return at most this many quotes. */
export const maxQuotes = 8;
/** A quote's part that must be written before it can end may be at most this long (characters). */
export const quoteHeadLimit = 32;
/** The block size, in characters, that bounds how far a quote may run past its head. */
export const quoteBlock = 64;

/**
 * For every start position `b`, the fewest characters from `b` that occur nowhere after `b`
 * (`0` when that exceeds `quoteHeadLimit`): every substring has one *last* occurrence, and a
 * substring whose last occurrence starts at `b` is exactly a prefix of `source[b..]` at least
 * that long. Computed with one rolling row of common-prefix lengths, capped at the limit.
 */
export function lastOccurrenceHeads(chars: readonly string[]): Int32Array {
  const n = chars.length;
  const cap = quoteHeadLimit + 1;
  const heads = new Int32Array(n);
  // row[j] = common prefix of suffixes i+1 and j (j > i+1) from the previous row, capped.
  let next = new Int32Array(n + 1);
  let current = new Int32Array(n + 1);
  const longest = new Int32Array(n);
  for (let i = n - 1; i >= 0; i -= 1) {
    let best = 0;
    for (let j = n - 1; j > i; j -= 1) {
      const common = chars[i] === chars[j] ? Math.min(cap, (next[j + 1] ?? 0) + 1) : 0;
      current[j] = common;
      if (common > best) best = common;
    }
    longest[i] = best;
    const swap = next;
    next = current;
    current = swap;
    current.fill(0);
  }
  for (let b = 0; b < n; b += 1) {
    const head = (longest[b] as number) + 1;
    heads[b] = head <= quoteHeadLimit && b + head <= n ? head : 0;
  }
  return heads;
}

/**
 * Call 1's GBNF grammar, built from the source itself: a JSON array of at most eight quotes,
 * each an exact, non-empty substring of the source written in the one JSON spelling, with no
 * whitespace. Quotes come in the order of their last occurrence in the source, strictly
 * increasing, so two quotes can never be equal. A quote is its head (the fewest characters from
 * its start that occur nowhere later, at most 32) followed by any run of the next characters up
 * to the end of the 64-character block after the head's end; the extension chains are shared
 * by every quote, so the grammar grows linearly with the source.
 */
export function buildQuoteGrammar(source: string): string {
  const chars = Array.from(source);
  const n = chars.length;
  const heads = lastOccurrenceHeads(chars);
  const lines: string[] = [];
  const starts: number[] = [];
  for (let b = 0; b < n; b += 1) if ((heads[b] as number) > 0) starts.push(b);
  if (starts.length === 0) return 'root ::= "[]"';
  // Extension chains: a runs through the next block boundary into b, b stops at the next one.
  const neededA = new Set<number>();
  for (const b of starts) {
    const from = b + (heads[b] as number);
    if (from < n) neededA.add(from);
  }
  const neededB = new Set<number>();
  const emitA = new Set<number>();
  for (const from of neededA) {
    for (let i = from; i < n && !emitA.has(i); i += 1) {
      emitA.add(i);
      if ((i + 1) % quoteBlock === 0) {
        if (i + 1 < n) neededB.add(i + 1);
        break;
      }
    }
  }
  const emitB = new Set<number>();
  for (const from of neededB) {
    for (let i = from; i < n && !emitB.has(i); i += 1) {
      emitB.add(i);
      if ((i + 1) % quoteBlock === 0) break;
    }
  }
  for (const i of [...emitA].sort((x, y) => x - y)) {
    const char = gbnfLiteral(jsonChar(chars[i] as string));
    const last = i + 1 >= n;
    const boundary = (i + 1) % quoteBlock === 0;
    const rest = last ? '' : boundary ? ` b${i + 1}` : ` a${i + 1}`;
    lines.push(`a${i} ::= ${char}${rest} | ""`);
  }
  for (const i of [...emitB].sort((x, y) => x - y)) {
    const char = gbnfLiteral(jsonChar(chars[i] as string));
    const stop = i + 1 >= n || (i + 1) % quoteBlock === 0;
    lines.push(`b${i} ::= ${char}${stop ? '' : ` b${i + 1}`} | ""`);
  }
  for (const b of starts) {
    const head = heads[b] as number;
    const text = chars
      .slice(b, b + head)
      .map((char) => jsonChar(char))
      .join('');
    const from = b + head;
    lines.push(`q${b} ::= "\\"" ${gbnfLiteral(text)}${from < n ? ` a${from}` : ''} "\\""`);
  }
  // g{i}k{k}: the k-th quote starts at starts[i] or later; r{i}k{k}: what follows it.
  for (let k = 1; k <= maxQuotes; k += 1) {
    for (let i = 0; i < starts.length; i += 1) {
      const b = starts[i] as number;
      const skip = i + 1 < starts.length ? ` | g${i + 1}k${k}` : '';
      lines.push(`g${i}k${k} ::= q${b} r${i}k${k}${skip}`);
      const more = k < maxQuotes && i + 1 < starts.length ? ` | "," g${i + 1}k${k + 1}` : '';
      lines.push(`r${i}k${k} ::= "]"${more}`);
    }
  }
  lines.unshift('root ::= "[" ("]" | g0k1)');
  return `${lines.join('\n')}\n`;
}
