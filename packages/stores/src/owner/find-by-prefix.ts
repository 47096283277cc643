/** What an id or a prefix of one names among some ids. */
export type PrefixMatch =
  | { readonly state: 'found'; readonly id: string }
  | { readonly state: 'none' }
  | { readonly state: 'ambiguous'; readonly candidates: readonly string[] };

/**
 * The id `query` names: an exact match first, else the only id it is a prefix of. Several ids
 * under the prefix are ambiguous (in the order given); none is none.
 */
export function findByPrefix(ids: Iterable<string>, query: string): PrefixMatch {
  const all = [...ids];
  if (all.includes(query)) return { state: 'found', id: query };
  const candidates = all.filter((id) => id.startsWith(query));
  if (candidates.length === 1) return { state: 'found', id: candidates[0] as string };
  return candidates.length === 0 ? { state: 'none' } : { state: 'ambiguous', candidates };
}
