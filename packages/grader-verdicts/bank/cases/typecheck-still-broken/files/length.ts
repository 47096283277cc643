/** The length of a word read from untyped input. */
export function wordLength(input: unknown): number {
  const word: string = input;
  return word.length;
}
