/** The length of a word read from untyped input. */
export function wordLength(input: unknown): number {
  return (input as unknown as string).length;
}
