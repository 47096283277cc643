import type { SessionListing } from './ports.js';

/** Which sessions a readout covers. */
export interface PopulationOptions {
  /** The moment the readout is taken; nothing reads the clock. */
  readonly now: Date;
  /** Only sessions begun within this many days before `now`; all when absent. */
  readonly days?: number;
  /**
   * A recorded surface (`web`, `task`, …) to narrow to; `test` selects development sessions
   * (and implies `includeTests`), `experiment` selects experiment sessions.
   */
  readonly kind?: string;
  /** Count development (`test`) sessions too. Experiment sessions are never in the ordinary corpus. */
  readonly includeTests?: boolean;
}

/** The sessions a readout covers, and those it left out and why. */
export interface Population {
  /** Sessions to read, in a fixed order (by id). */
  readonly members: readonly SessionListing[];
  /** Sessions that may belong but whose head (kind or surface) could not be read. */
  readonly headUnreadable: number;
  readonly testsHidden: number;
  readonly experimentsHidden: number;
  /** The start of the window, in epoch milliseconds. */
  readonly since: number;
}

const day = 86_400_000;

/**
 * Selects the population from the session listing: the window, then the surface or kind, then
 * development data hidden and counted. A session whose head could not be read is counted as
 * unreadable rather than guessed ordinary.
 */
export function selectPopulation(
  listing: readonly SessionListing[],
  options: PopulationOptions,
): Population {
  const since =
    options.days === undefined
      ? Number.NEGATIVE_INFINITY
      : options.now.getTime() - options.days * day;
  const kind = options.kind;
  const includeTests = options.includeTests === true || kind === 'test';
  const unique = new Map<string, SessionListing>();
  for (const entry of listing) if (!unique.has(entry.sessionId)) unique.set(entry.sessionId, entry);
  const members: SessionListing[] = [];
  let headUnreadable = 0;
  let testsHidden = 0;
  let experimentsHidden = 0;
  for (const entry of unique.values()) {
    if (Date.parse(entry.startedAt) < since) continue;
    const bySessionKind = kind === 'test' || kind === 'experiment';
    if (
      entry.kind === undefined ||
      (!bySessionKind && kind !== undefined && entry.surface === undefined)
    ) {
      headUnreadable += 1;
      continue;
    }
    if (bySessionKind ? entry.kind !== kind : kind !== undefined && entry.surface !== kind)
      continue;
    if (entry.kind === 'experiment' && kind !== 'experiment') experimentsHidden += 1;
    else if (entry.kind === 'test' && !includeTests) testsHidden += 1;
    else members.push(entry);
  }
  members.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  return { members, headUnreadable, testsHidden, experimentsHidden, since };
}
