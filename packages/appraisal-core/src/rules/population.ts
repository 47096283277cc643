import type { SessionListing, SessionsPort, SessionVisitor } from '../ports/appraisal-ports.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { PopulationOptions } from './population-options.js';

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

/** Where one listed session stands with a readout's population. */
export type PopulationStanding =
  | 'member'
  /** Begun before the window, or of another surface or kind than the one asked for. */
  | 'outside'
  /** May belong, but the head of its transcript (its kind or surface) could not be read. */
  | 'head_unreadable'
  | 'test_hidden'
  | 'experiment_hidden';

/**
 * The population's rule for one session at a time: the window, then the surface or kind, then
 * development data hidden. A session whose head could not be read is never guessed ordinary.
 */
export function populationRule(options: PopulationOptions): {
  /** The start of the window, in epoch milliseconds. */
  readonly since: number;
  readonly standing: (entry: SessionListing) => PopulationStanding;
} {
  const since =
    options.days === undefined
      ? Number.NEGATIVE_INFINITY
      : options.now.getTime() - options.days * day;
  const kind = options.kind;
  const includeTests = options.includeTests === true || kind === 'test';
  const bySessionKind = kind === 'test' || kind === 'experiment';
  return {
    since,
    standing: (entry) => {
      if (Date.parse(entry.startedAt) < since) return 'outside';
      if (
        entry.kind === undefined ||
        (!bySessionKind && kind !== undefined && entry.surface === undefined)
      ) {
        return 'head_unreadable';
      }
      if (bySessionKind ? entry.kind !== kind : kind !== undefined && entry.surface !== kind) {
        return 'outside';
      }
      if (entry.kind === 'experiment' && kind !== 'experiment') return 'experiment_hidden';
      if (entry.kind === 'test' && !includeTests) return 'test_hidden';
      return 'member';
    },
  };
}

/** Whether a scan's visitor wants a session's transcript (see `SessionVisitor.population`). */
export function wantedBy(
  population: PopulationOptions | 'every',
): (entry: SessionListing) => boolean {
  if (population === 'every') return () => true;
  const { standing } = populationRule(population);
  return (entry) => standing(entry) === 'member';
}

/**
 * Selects the population from the session listing by the population rule, each session once
 * (the first listing of an id counts), members in id order, and the others counted by why.
 */
export function selectPopulation(
  listing: readonly SessionListing[],
  options: PopulationOptions,
): Population {
  const { since, standing } = populationRule(options);
  const seen = new Set<string>();
  const members: SessionListing[] = [];
  let headUnreadable = 0;
  let testsHidden = 0;
  let experimentsHidden = 0;
  for (const entry of listing) {
    if (seen.has(entry.sessionId)) continue;
    seen.add(entry.sessionId);
    switch (standing(entry)) {
      case 'member':
        members.push(entry);
        break;
      case 'head_unreadable':
        headUnreadable += 1;
        break;
      case 'test_hidden':
        testsHidden += 1;
        break;
      case 'experiment_hidden':
        experimentsHidden += 1;
        break;
      case 'outside':
        break;
    }
  }
  members.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
  return { members, headUnreadable, testsHidden, experimentsHidden, since };
}

/**
 * One pass over the session store for a readout: every member's transcript goes to the
 * visitor as it is read, and the listing and the population come back with it.
 */
export async function scanPopulation(
  sessions: SessionsPort,
  visitor: SessionVisitor & { readonly population: PopulationOptions },
): Promise<{ readonly listing: SourceRead<SessionListing>; readonly population: Population }> {
  const listing = await sessions.scan(visitor);
  const population = selectPopulation(
    listing.state === 'unreadable' ? [] : listing.records,
    visitor.population,
  );
  return { listing, population };
}
