/** The length of a word read from untyped input. */
export function wordLength(input: unknown): number {
  return typeof input === 'string' ? input.length : 0;
}
