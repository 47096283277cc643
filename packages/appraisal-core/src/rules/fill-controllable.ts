import { probeKey } from './probe-points.js';
import type { SignedEntry } from './signed-entry.js';

/**
 * Fills `controllable` on a session's steers and denials from the probe's resolutions, keyed by
 * {@link probeKey}: `true` where the intervention mattered (an alternative existed), `false`
 * where the run got there anyway. Every other entry, and an inconclusive probe, stays unfilled:
 * the probe is the only filler of `controllable`.
 */
export function fillControllable(
  entries: readonly SignedEntry[],
  resolved: ReadonlyMap<string, boolean> | undefined,
): SignedEntry[] {
  if (resolved === undefined || resolved.size === 0) return [...entries];
  return entries.map((entry) => {
    if ((entry.row !== 'steer' && entry.row !== 'deny') || entry.error.cite.kind !== 'turn') {
      return entry;
    }
    const found = resolved.get(probeKey(entry.row, entry.error.cite.turn));
    return found === undefined
      ? entry
      : { ...entry, error: { ...entry.error, controllable: found } };
  });
}
