/** The length of a word read from untyped input. */
export function wordLength(input: unknown): number {
  // @ts-expect-error
  return input.length;
}
