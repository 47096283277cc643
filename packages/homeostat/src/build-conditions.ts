import type {
  CharterReadingRecord,
  CharterReadingState,
  CommitmentRecord,
  ConditionsSnapshot,
  SourceRead,
} from '@mecha/appraisal-core';
import {
  anticipatedGuilt,
  appraiseCommitment,
  type Charter,
  type CommitmentReading,
  type CommitmentStore,
  commitmentAge,
  commitmentStores,
  type PendingCommitment,
  patienceOf,
  sensorForStore,
} from '@mecha/charter';
import type { PendingRow, PendingStores } from './pending-commitments.js';
import type { Reading } from './reading.js';

/**
 * Everything one snapshot is built from, already read: each sensor's reading (or why it
 * failed), what is pending in each store, the charter, and the stores the harness withdrew from
 * the run as saturated. `now` is epoch milliseconds.
 */
export interface ConditionsInput {
  readonly now: number;
  readonly loadAverage1m: Reading<number>;
  readonly memAvailableKb: Reading<number>;
  readonly pending: PendingStores;
  readonly charter: Reading<Charter>;
  readonly withdrawnSaturated?: readonly CommitmentStore[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A pending row's age at `now`, or undefined when its staged time cannot be read. */
function ageOf(row: PendingRow, now: number): number | undefined {
  const stagedAt = Date.parse(row.stagedAt);
  if (!Number.isFinite(stagedAt) || !Number.isFinite(now)) return undefined;
  return commitmentAge(stagedAt, now);
}

interface AgedRows {
  readonly rows: readonly (PendingRow & { readonly age: number })[];
  /** False when the store was read in part or a row's age could not be read. */
  readonly complete: boolean;
}

function aged(source: SourceRead<PendingRow>, now: number): AgedRows | undefined {
  if (source.state === 'unreadable') return undefined;
  let complete = source.state === 'read';
  const rows: (PendingRow & { age: number })[] = [];
  for (const row of source.records) {
    const age = ageOf(row, now);
    if (age === undefined) complete = false;
    else rows.push({ ...row, age });
  }
  return { rows, complete };
}

const owes = (row: PendingRow) => row.status !== 'needs_info';

function pendingCommitment(
  store: CommitmentStore,
  row: PendingRow & { readonly age: number },
): PendingCommitment {
  if (store === 'requests') {
    return { store, id: row.id, age: row.age, status: row.status ?? 'open' };
  }
  return { store, id: row.id, age: row.age };
}

function commitmentRecord(reading: CommitmentReading): CommitmentRecord {
  const age_ms = Math.round(reading.age);
  if (!reading.owed) return { owed: false, id: reading.id, age_ms, reason: 'needs_info' };
  return {
    owed: true,
    id: reading.id,
    age_ms,
    patience_ms: reading.patience,
    patience_source: reading.patienceSource,
    past_patience: reading.pastPatience,
    guilt: reading.guilt,
    ...(reading.line === undefined ? {} : { line: { ...reading.line } }),
  };
}

/**
 * Whether a charter reading meets its setpoint. Only `within` and `no_items` do; a reading cut
 * short or not taken never counts as meeting it, and neither does one past it.
 */
export function meetsSetpoint(state: CharterReadingState): boolean {
  return state === 'within' || state === 'no_items';
}

/**
 * Reads every sensored charter line against what waits in the store it watches: the level (the
 * oldest row waiting on the owner), how many wait and how many are past the setpoint, one of
 * the five states, and whether the store was withdrawn from the run as saturated.
 */
export function charterReadings(
  charter: Charter,
  pending: PendingStores,
  now: number,
  withdrawnSaturated: readonly CommitmentStore[] = [],
): CharterReadingRecord[] {
  const readings: CharterReadingRecord[] = [];
  charter.forEach((line, index) => {
    if (line.sensor === undefined) return;
    const store = commitmentStores.find((name) => sensorForStore[name] === line.sensor);
    if (store === undefined) return;
    const patience = patienceOf(charter, store);
    // Only the line that sets the store's patience reads it; a second line with the same
    // sensor (an invalid charter) reads nothing rather than a setpoint it does not own.
    if (patience.line?.id !== line.id) return;
    const base = {
      line: line.id,
      rank: index + 1,
      sensor: line.sensor,
      store,
      setpoint_ms: patience.patience,
      setpoint_source: patience.source,
      withdrawn_saturated: withdrawnSaturated.includes(store),
    };
    const rows = aged(pending[store], now);
    if (rows === undefined) {
      readings.push({ ...base, state: 'unread' });
      return;
    }
    const waiting = rows.rows.filter(owes);
    const level = waiting.reduce<number | undefined>(
      (oldest, row) => (oldest === undefined || row.age > oldest ? row.age : oldest),
      undefined,
    );
    const past = waiting.filter((row) => row.age > patience.patience).length;
    let state: CharterReadingState;
    if (level !== undefined && level > patience.patience) state = 'past_setpoint';
    else if (!rows.complete) state = 'partial';
    else state = level === undefined ? 'no_items' : 'within';
    readings.push({
      ...base,
      state,
      ...(level === undefined ? {} : { level_ms: Math.round(level) }),
      items_waiting: waiting.length,
      items_past_setpoint: past,
    });
  });
  return readings;
}

function storeReason(source: SourceRead<PendingRow>): string | undefined {
  return source.state === 'unreadable' ? source.reason : undefined;
}

/**
 * Builds the start-of-run snapshot from readings already taken. A sensor that could not be
 * read leaves its field absent and its reason under `unread` — never a zero. Commitments and
 * charter readings need the charter, so without it they are absent and the backlog still counts.
 */
export function buildConditions(input: ConditionsInput): ConditionsSnapshot {
  const snapshot: Mutable<ConditionsSnapshot> = {};
  const unread: Record<string, string> = {};

  const load = input.loadAverage1m;
  if (load.state === 'read' && Number.isFinite(load.value) && load.value >= 0)
    snapshot.load_avg_1m = load.value;
  else
    unread.load_avg_1m =
      load.state === 'read' ? `the sensor gave ${String(load.value)}` : load.reason;

  const memory = input.memAvailableKb;
  if (memory.state === 'read' && Number.isSafeInteger(memory.value) && memory.value >= 0) {
    snapshot.mem_available_kb = memory.value;
  } else {
    unread.mem_available_kb =
      memory.state === 'read' ? `the sensor gave ${String(memory.value)}` : memory.reason;
  }

  const backlog: Mutable<NonNullable<ConditionsSnapshot['backlog']>> = {};
  for (const store of commitmentStores) {
    const source = input.pending[store];
    const reason = storeReason(source);
    if (reason !== undefined) {
      unread[`backlog.${store}`] = reason;
      continue;
    }
    const records = source.state === 'unreadable' ? [] : source.records;
    backlog[store] = { count: records.filter(owes).length, complete: source.state === 'read' };
  }
  if (Object.keys(backlog).length > 0) snapshot.backlog = backlog;

  if (input.charter.state === 'read') {
    const charter = input.charter.value;
    const commitments: Mutable<NonNullable<ConditionsSnapshot['commitments']>> = {};
    const all: CommitmentReading[] = [];
    for (const store of commitmentStores) {
      const source = input.pending[store];
      const rows = aged(source, input.now);
      if (rows === undefined) {
        unread[`commitments.${store}`] = storeReason(source) ?? 'the store could not be read';
        continue;
      }
      const readings = rows.rows.map((row) =>
        appraiseCommitment(charter, pendingCommitment(store, row)),
      );
      all.push(...readings);
      commitments[store] = { items: readings.map(commitmentRecord), complete: rows.complete };
    }
    if (Object.keys(commitments).length > 0) snapshot.commitments = commitments;
    const guilt = anticipatedGuilt(all);
    if (guilt._tag === 'Some') snapshot.anticipated_guilt = guilt.value;
    snapshot.charter = charterReadings(charter, input.pending, input.now, input.withdrawnSaturated);
  } else {
    unread.commitments = `the charter could not be loaded: ${input.charter.reason}`;
    unread.anticipated_guilt = unread.commitments;
    unread.charter = unread.commitments;
  }

  const withdrawn = commitmentStores.filter((store) => input.withdrawnSaturated?.includes(store));
  if (withdrawn.length > 0) snapshot.withdrawn_saturated = withdrawn;
  if (Object.keys(unread).length > 0) snapshot.unread = unread;
  return snapshot;
}
