import type { ConditionsSnapshot } from '@mecha/appraisal-core';
import type { Charter, CommitmentStore } from '@mecha/charter';
import { buildConditions } from './build-conditions.js';
import { conditionsAtEnd, type TurnReading } from './conditions-at-end.js';
import type { PendingStores } from './pending-commitments.js';
import { couldNotRead, type Reading } from './reading.js';
import type { RecordedConditions } from './recorded-conditions.js';

/**
 * The live sensors a harness lends a run that opts in: the clock, machine load and memory, the
 * three commitment stores and the charter. Any may be missing; its field is then recorded as
 * unread. On Node, `@mecha/homeostat/node` provides the machine sensors.
 */
export interface LiveSensors {
  /** Epoch milliseconds. */
  readonly now: () => number;
  readonly loadAverage1m?: () => Promise<Reading<number>>;
  readonly memAvailableKb?: () => Promise<Reading<number>>;
  readonly stores?: () => Promise<PendingStores>;
  readonly charter?: () => Promise<Reading<Charter>>;
}

/**
 * What a live run carries about its conditions, the way it carries cancellation: sampling is
 * opt-in, so nothing is sampled unless `sensors` is passed.
 */
export interface RunContext {
  readonly replay?: false;
  readonly sensors?: LiveSensors;
}

/**
 * What a replay, a probe or an evaluation carries instead: the recorded snapshot, and no way to
 * sample. It is not a `RunContext`, so no sampling function accepts it.
 */
export interface ReplayContext {
  readonly replay: true;
  readonly recorded?: RecordedConditions;
  readonly sensors?: never;
}

/** The start of a sampled run: the snapshot to record, and the backlog kept for the end. */
export interface StartedConditions {
  readonly snapshot: ConditionsSnapshot;
  readonly pending: PendingStores;
}

const noStores = (reason: string): PendingStores => ({
  outbox: { state: 'unreadable', reason },
  questions: { state: 'unreadable', reason },
  requests: { state: 'unreadable', reason },
});

/** Calls a sensor; a missing one, or one that throws, is a reading that failed. */
async function sense<T>(
  sensor: (() => Promise<Reading<T>>) | undefined,
  missing: string,
): Promise<Reading<T>> {
  if (sensor === undefined) return couldNotRead(missing);
  try {
    return await sensor();
  } catch (error) {
    return couldNotRead(
      `the sensor failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function readStores(sensors: LiveSensors): Promise<PendingStores> {
  if (sensors.stores === undefined) return noStores('this harness lent no store sensor');
  try {
    return await sensors.stores();
  } catch (error) {
    return noStores(
      `the stores could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * Samples the conditions as a run begins — only when the context carries live sensors;
 * otherwise undefined, and the run records none. `withdrawnSaturated` names the stores the
 * harness withdrew from the run as saturated.
 */
export async function sampleConditions(
  context: RunContext,
  options: { readonly withdrawnSaturated?: readonly CommitmentStore[] } = {},
): Promise<StartedConditions | undefined> {
  const sensors = context.sensors;
  if (sensors === undefined) return undefined;
  const [loadAverage1m, memAvailableKb, pending, charter] = await Promise.all([
    sense(sensors.loadAverage1m, 'this harness lent no load sensor'),
    sense(sensors.memAvailableKb, 'this harness lent no memory sensor'),
    readStores(sensors),
    sense(sensors.charter, 'this harness lent no charter'),
  ]);
  const snapshot = buildConditions({
    now: sensors.now(),
    loadAverage1m,
    memAvailableKb,
    pending,
    charter,
    ...(options.withdrawnSaturated === undefined
      ? {}
      : { withdrawnSaturated: options.withdrawnSaturated }),
  });
  return { snapshot, pending };
}

/**
 * The end-of-run part of a sampled run: the backlog's flow since the start and the peaks over
 * its turns. Undefined when the run did not opt in (no sensors, or nothing sampled at start).
 */
export async function finishConditions(
  context: RunContext,
  started: StartedConditions | undefined,
  turns: readonly TurnReading[],
): Promise<ConditionsSnapshot | undefined> {
  const sensors = context.sensors;
  if (sensors === undefined || started === undefined) return undefined;
  const after = await readStores(sensors);
  return conditionsAtEnd({ before: started.pending, after, turns });
}

/** The context a replay or an evaluation runs under: the recorded snapshot, if there is one. */
export function replayContext(recorded: RecordedConditions | undefined): ReplayContext {
  return recorded === undefined ? { replay: true } : { replay: true, recorded };
}
