/** The length of a word read from untyped input; 0 when the input is not a string. */
export function wordLength(input: unknown): number {
  return typeof input === 'string' ? input.length : 0;
}
