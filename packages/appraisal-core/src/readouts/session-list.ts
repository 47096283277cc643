import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import { indexSessionStores, readSessionStores } from '../ports/store-index.js';
import { scanPopulation } from '../rules/population.js';
import type { PopulationOptions } from '../rules/population-options.js';
import { appraisedEventTypes } from '../rules/read-transcript.js';
import type { Label } from '../schemas/goal-error.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { SessionKind, Surface } from '../schemas/transcript.js';
import { readSession } from './read-session.js';

/** One session as `sessions list` shows it: where and when, how many runs, and its reading. */
export type SessionRow =
  | {
      readonly session_id: string;
      readonly started_at: string;
      readonly kind: SessionKind | null;
      readonly surface: Surface | null;
      readonly state: 'read' | 'partial';
      readonly runs: number;
      /** How many signed errors the session has; 0 for a silent one. */
      readonly signed: number;
      readonly label: Label;
      readonly valence: {
        readonly positive: number;
        readonly negative: number;
        readonly partial: boolean;
      };
    }
  | {
      readonly session_id: string;
      readonly started_at: string;
      readonly kind: SessionKind | null;
      readonly surface: Surface | null;
      readonly state: 'unreadable';
      readonly reason: string;
      /** Unknown, never 0: the transcript could not be read. */
      readonly runs: null;
      readonly signed: null;
      readonly label: null;
      readonly valence: null;
    };

/** The sessions of a window, newest first, each with its reading; what could not be read says so. */
export interface SessionList {
  /** Whether the session store could be listed at all; when not, `sessions` is empty. */
  readonly listed: SourceRead<unknown>['state'];
  readonly sessions: readonly SessionRow[];
  /** Sessions that may belong but whose head (kind or surface) could not be read. */
  readonly head_unreadable: number;
  readonly tests_hidden: number;
  readonly experiments_hidden: number;
}

/**
 * Lists the sessions of a readout's population (the same window and kind rule as the corpus
 * readout), newest first, each with its run count, derived label and valence, in one pass over
 * the session store. An unreadable transcript is listed as such, with no numbers.
 */
export async function listSessions(
  ports: AppraisalPorts,
  options: PopulationOptions,
): Promise<SessionList> {
  const [stores, charter] = await Promise.all([readSessionStores(ports), ports.charter.lines()]);
  const index = indexSessionStores(stores);
  const rows: SessionRow[] = [];
  const { listing, population } = await scanPopulation(ports.sessions, {
    population: options,
    events: [...appraisedEventTypes],
    visit: (member, transcript) => {
      const where = {
        session_id: member.sessionId,
        started_at: member.startedAt,
        kind: member.kind ?? null,
        surface: member.surface ?? null,
      };
      if (transcript.state === 'unreadable') {
        rows.push({
          ...where,
          state: 'unreadable',
          reason: transcript.reason,
          runs: null,
          signed: null,
          label: null,
          valence: null,
        });
        return;
      }
      const reading = readSession(index.evidenceFor(member.sessionId, transcript), charter);
      rows.push({
        ...where,
        state: transcript.state,
        runs: transcript.records.filter((event) => event.type === 'run_start').length,
        signed: reading.errors.length,
        label: reading.label,
        valence: { ...reading.valence },
      });
    },
  });
  rows.sort((a, b) =>
    a.started_at < b.started_at
      ? 1
      : a.started_at > b.started_at
        ? -1
        : a.session_id < b.session_id
          ? 1
          : -1,
  );
  return {
    listed: listing.state,
    sessions: rows,
    head_unreadable: population.headUnreadable,
    tests_hidden: population.testsHidden,
    experiments_hidden: population.experimentsHidden,
  };
}

/**
 * The kinds a `--kind` filter can select in this home: every surface a session was recorded
 * from, plus the development kinds `test` and `experiment`, sorted. `unreadable` when the
 * session store could not be listed, so a caller never refuses a kind it could not check.
 */
export async function kindsOnRecord(
  sessions: AppraisalPorts['sessions'],
): Promise<SourceRead<string>> {
  const listing = await sessions.list();
  if (listing.state === 'unreadable') return listing;
  const kinds = new Set<string>(['test', 'experiment']);
  for (const entry of listing.records) if (entry.surface !== undefined) kinds.add(entry.surface);
  return { state: 'read', records: [...kinds].sort() };
}
