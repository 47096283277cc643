/**
 * The one order every rule reads records in: by timestamp, and records with the same timestamp
 * in store order (the order they were appended), as the seed's stores are append-only logs.
 * Both the contributions and the successes read "the first verdict" through these helpers, so
 * a tie can never be decided two ways.
 */
export function chronological<T extends { readonly at: string }>(list: readonly T[]): T[] {
  return list
    .map((record, index) => ({ record, index, time: Date.parse(record.at) }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map((entry) => entry.record);
}

/** The first record per key, in {@link chronological} order. */
export function firstPerKey<T extends { readonly at: string }>(
  list: readonly T[],
  key: (record: T) => string | undefined,
): Map<string, T> {
  const found = new Map<string, T>();
  for (const record of chronological(list)) {
    const id = key(record);
    if (id !== undefined && !found.has(id)) found.set(id, record);
  }
  return found;
}
