/**
 * Whether a long conversation gets a new brief: only when the words changed. Bands (time of day,
 * a call, the model server) absorb drift, so only a real change sends one; after a compaction
 * the brief is put back rather than summarised, so it is sent again.
 */
export function shouldSendBrief(
  previous: string | undefined,
  next: string,
  options: { readonly compacted?: boolean } = {},
): boolean {
  return previous === undefined || options.compacted === true || previous !== next;
}
