/** The distinct words (letters and digits, lower-cased) of a text. */
function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Recall's similarity: the share of the query's distinct words that the text contains, in
 * millionths (0 for an empty query). Reports that differ only in numeric ids look alike to it,
 * and a paraphrase with other words does not.
 */
export function wordOverlap(query: string, text: string): number {
  const asked = words(query);
  if (asked.size === 0) return 0;
  const present = words(text);
  let shared = 0;
  for (const word of asked) if (present.has(word)) shared += 1;
  return Math.round((shared / asked.size) * 1_000_000);
}
