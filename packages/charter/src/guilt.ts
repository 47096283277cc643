import * as O from 'fp-ts/lib/Option.js';
import type { Charter } from './charter.js';
import { CharterArgumentError } from './charter-argument-error.js';
import type { CharterSensor } from './charter-sensor.js';

/**
 * The three stores a commitment can sit in, the same ones the backlog reads: staged drafts in
 * the outbox, parked questions, and front-door requests. A row in one of them is the only thing
 * that is a commitment; nothing a third party says can make one.
 */
export const commitmentStores = ['outbox', 'questions', 'requests'] as const;

/** One of the three stores mecha keeps commitments in. */
export type CommitmentStore = (typeof commitmentStores)[number];

/** The sensor that watches each store, read as the age of what waits there. */
export const sensorForStore: Readonly<Record<CommitmentStore, CharterSensor>> = Object.freeze({
  outbox: 'outbox_age',
  questions: 'question_latency',
  requests: 'request_closure',
});

const hour = 60 * 60 * 1000;

/**
 * The patience of a store no charter line sets, in milliseconds — the same defaults
 * `mecha doctor` uses: 48 hours for a draft, 24 for a question, 72 for a request.
 */
export const defaultPatience: Readonly<Record<CommitmentStore, number>> = Object.freeze({
  outbox: 48 * hour,
  questions: 24 * hour,
  requests: 72 * hour,
});

/** The charter line whose sensor watches a store: its id and its rank (1 is the top). */
export interface WatchingLine {
  readonly id: string;
  readonly rank: number;
}

/** How long a store's commitments may wait, and where that number came from. */
export interface Patience {
  readonly store: CommitmentStore;
  /** Milliseconds. */
  readonly patience: number;
  /** `setpoint`: the watching line's setpoint; `default`: `defaultPatience` for the store. */
  readonly source: 'setpoint' | 'default';
  /** The line whose sensor watches the store; absent when no line does. */
  readonly line?: WatchingLine;
}

function watchingLine(charter: Charter, store: CommitmentStore): WatchingLine | undefined {
  const sensor = sensorForStore[store];
  // A valid charter has at most one line per sensor; should an invalid one have two, the
  // higher-ranked line is the one that counts.
  const index = charter.findIndex((line) => line.sensor === sensor);
  const line = charter[index];
  return line === undefined ? undefined : { id: line.id, rank: index + 1 };
}

/**
 * The patience of a store: the setpoint of the charter line whose sensor watches it, or, where
 * no line does or the line has no setpoint, `defaultPatience` for the store. A line that
 * watches the store without a setpoint still lends the store its rank.
 */
export function patienceOf(charter: Charter, store: CommitmentStore): Patience {
  const line = watchingLine(charter, store);
  const setpoint = line === undefined ? undefined : charter[line.rank - 1]?.setpoint;
  return {
    store,
    ...(setpoint === undefined
      ? { patience: defaultPatience[store], source: 'default' as const }
      : { patience: setpoint, source: 'setpoint' as const }),
    ...(line === undefined ? {} : { line }),
  };
}

/** The largest number below 1: where the formula would round up to 1, it stops here. */
const belowOne = 1 - 2 ** -53;

/**
 * How far past its patience a commitment has waited, in [0, 1):
 *
 *     excess(age, patience) = 0                          when age ≤ patience
 *                           = (age − patience) / age     when age > patience
 *
 * Zero within the patience, exactly ½ at twice it, strictly increasing beyond, and approaching
 * but never reaching 1: a commitment can always get worse, and no single one saturates. It is
 * computed as `1 − patience / age`, which is non-decreasing in floating point too; where the
 * ratio is so large (age over 2⁵³ patiences) that it would round to 1, it holds at the largest
 * number below 1. Both arguments are milliseconds. Throws `CharterArgumentError` for an age
 * that is not a finite number or a patience that is not finite and positive.
 */
export function excess(age: number, patience: number): number {
  if (!Number.isFinite(age)) {
    throw new CharterArgumentError('age', `an age must be a finite number, not ${String(age)}`);
  }
  if (!Number.isFinite(patience) || patience <= 0) {
    throw new CharterArgumentError(
      'patience',
      `a patience must be a finite positive number, not ${String(patience)}`,
    );
  }
  if (age <= patience) return 0;
  const value = 1 - patience / age;
  return value < 1 ? value : belowOne;
}

/**
 * The weight of the charter line at `rank`: 1 for the top line, ½ for the second, ⅓ for the
 * third — `1 / rank`. It follows from position alone: there are no weights to set. Throws
 * `CharterArgumentError` for a rank that is not a positive whole number.
 */
export function rankWeight(rank: number): number {
  if (!Number.isSafeInteger(rank) || rank < 1) {
    throw new CharterArgumentError(
      'rank',
      `a rank is a whole number from 1 (the top line), not ${String(rank)}`,
    );
  }
  return 1 / rank;
}

/**
 * The weight of a store no charter line watches: `1 / (n + 1)` for a charter of n lines, as if
 * it were one rank below the last line the owner wrote, so it weighs less than every one of
 * them. With no lines at all it is 1.
 */
export function unwatchedWeight(charter: Charter): number {
  return 1 / (charter.length + 1);
}

/** The status of a front-door request; `needs_info` means it is parked on the requester. */
export type RequestStatus = 'needs_info' | (string & {});

/**
 * One row pending in one of mecha's own stores, as the homeostat reads it: the row's id, its
 * store and how long it has waited (milliseconds; see `commitmentAge`). A request also carries
 * its status, so one parked on the requester (`needs_info`) can be told apart.
 */
export type PendingCommitment =
  | { readonly store: 'outbox' | 'questions'; readonly id: string; readonly age: number }
  | {
      readonly store: 'requests';
      readonly id: string;
      readonly age: number;
      readonly status: RequestStatus;
    };

/** A commitment waiting on the owner, with everything its guilt was computed from. */
export interface OwedReading {
  readonly owed: true;
  readonly id: string;
  readonly store: CommitmentStore;
  /** Milliseconds waited. */
  readonly age: number;
  /** Milliseconds of patience the store has. */
  readonly patience: number;
  readonly patienceSource: 'setpoint' | 'default';
  /** Whether it has waited longer than its patience (exactly when `excess` > 0). */
  readonly pastPatience: boolean;
  /** `excess(age, patience)`, in [0, 1). */
  readonly excess: number;
  /** The watching line's `rankWeight`, or the charter's `unwatchedWeight`. */
  readonly weight: number;
  /** `excess × weight`, in [0, 1). */
  readonly guilt: number;
  /** The charter line whose sensor watches the store; absent when none does. */
  readonly line?: WatchingLine;
}

/**
 * A pending row that is not a commitment of the owner's: a request parked on the requester
 * (`needs_info`) owes nothing. It has no guilt field at all — not a guilt of 0 — so it cannot be
 * summed, averaged or maximised by mistake, and it never makes anticipated guilt present.
 */
export interface NotOwedReading {
  readonly owed: false;
  readonly id: string;
  readonly store: 'requests';
  readonly age: number;
  readonly reason: 'needs_info';
}

/** What the homeostat records for each pending row. */
export type CommitmentReading = OwedReading | NotOwedReading;

/**
 * How long a row has waited at `now`, in milliseconds, from when it was staged (epoch
 * milliseconds or a `Date`). A row stamped later than `now` (clock skew) has waited 0.
 */
export function commitmentAge(stagedAt: number | Date, now: number | Date): number {
  const from = stagedAt instanceof Date ? stagedAt.getTime() : stagedAt;
  const to = now instanceof Date ? now.getTime() : now;
  if (!Number.isFinite(from)) {
    throw new CharterArgumentError('stagedAt', `a staged-at time must be finite, not ${from}`);
  }
  if (!Number.isFinite(to)) {
    throw new CharterArgumentError('now', `the time now must be finite, not ${to}`);
  }
  return Math.max(0, to - from);
}

/**
 * Reads one pending row: its patience (from the line watching its store, else the default),
 * whether it is past it, its excess, the weight of the line that sets the patience (or the
 * unwatched weight), and its guilt, `excess × weight`. A request parked on the requester is
 * not owed and carries no guilt. Throws `CharterArgumentError` for an age that is not a finite
 * number ≥ 0: an age that could not be read must not be read as a small one.
 */
export function appraiseCommitment(
  charter: Charter,
  commitment: PendingCommitment,
): CommitmentReading {
  const { id, store, age } = commitment;
  if (!Number.isFinite(age) || age < 0) {
    throw new CharterArgumentError(
      'age',
      `the age of ${store} row ${JSON.stringify(id)} must be a finite number of milliseconds ≥ 0, not ${String(age)}`,
    );
  }
  if (!(commitmentStores as readonly string[]).includes(store)) {
    throw new CharterArgumentError('store', `${JSON.stringify(store)} is not a commitment store`);
  }
  if (commitment.store === 'requests' && commitment.status === 'needs_info') {
    return { owed: false, id, store: 'requests', age, reason: 'needs_info' };
  }
  const { patience, source, line } = patienceOf(charter, store);
  const over = excess(age, patience);
  const weight = line === undefined ? unwatchedWeight(charter) : rankWeight(line.rank);
  return {
    owed: true,
    id,
    store,
    age,
    patience,
    patienceSource: source,
    pastPatience: age > patience,
    excess: over,
    weight,
    guilt: over * weight,
    ...(line === undefined ? {} : { line }),
  };
}

/** `appraiseCommitment` for every pending row, in the order given. */
export function appraiseCommitments(
  charter: Charter,
  pending: readonly PendingCommitment[],
): CommitmentReading[] {
  return pending.map((commitment) => appraiseCommitment(charter, commitment));
}

/**
 * Anticipated guilt: the largest guilt among the owed commitments — a readout for the
 * diagnostic brief, which nothing decides on. `none` (absent, not 0) when nothing is owed:
 * no pending row at all, or only requests parked on their requesters. `some(0)` means there are
 * commitments and none is past its patience.
 */
export function anticipatedGuilt(readings: readonly CommitmentReading[]): O.Option<number> {
  let largest: number | undefined;
  for (const reading of readings) {
    if (!reading.owed) continue;
    if (largest === undefined || reading.guilt > largest) largest = reading.guilt;
  }
  return largest === undefined ? O.none : O.some(largest);
}
