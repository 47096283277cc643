import {
  type ConditionsSnapshot,
  conditionsSnapshotSchema,
  type TranscriptEvent,
} from '@mecha/appraisal-core';

declare const recordedBrand: unique symbol;

/**
 * A snapshot read back from a run's record — the only conditions that replay, evaluation and
 * appraisal may use. The brand makes it a distinct type that only `recordedConditions` and
 * `parseRecordedConditions` produce, and nothing reachable from it can sample live state.
 */
export type RecordedConditions = Readonly<ConditionsSnapshot> & {
  readonly [recordedBrand]: true;
};

const endFields = ['backlog_delta', 'peak_prompt_tokens', 'peak_context_pressure'] as const;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Whether a dotted `unread` key names a field the merged snapshot holds after all. */
function holds(snapshot: ConditionsSnapshot, path: string): boolean {
  let at: unknown = snapshot;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || !(key in at)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return at !== undefined;
}

function merge(start: ConditionsSnapshot, end: ConditionsSnapshot): ConditionsSnapshot {
  const merged: ConditionsSnapshot = { ...end, ...start };
  for (const field of endFields) {
    const value = end[field] ?? start[field];
    if (value === undefined) delete merged[field];
    else Object.assign(merged, { [field]: value });
  }
  delete merged.unread;
  const delta = merged.backlog_delta;
  if (merged.charter !== undefined && delta !== undefined) {
    merged.charter = merged.charter.map((reading) => {
      const flow = reading.run_delta ?? delta[reading.store];
      return flow === undefined ? reading : { ...reading, run_delta: flow };
    });
  }
  const unread = Object.entries({ ...start.unread, ...end.unread }).filter(
    ([path]) => !holds(merged, path),
  );
  if (unread.length > 0) merged.unread = Object.fromEntries(unread);
  return merged;
}

/**
 * Validates an already-merged snapshot (from JSON, say) and brands it as recorded. Undefined
 * when the value is not a snapshot: nothing is guessed.
 */
export function parseRecordedConditions(value: unknown): RecordedConditions | undefined {
  const parsed = conditionsSnapshotSchema.safeParse(value);
  return parsed.success ? (deepFreeze(parsed.data) as RecordedConditions) : undefined;
}

/**
 * The conditions a run recorded, read back from its transcript: the start-of-run snapshot on
 * `run_start` merged with the end-of-run part on `run_end`, each charter reading given the
 * run's flow on its store. `runId` picks the run (the first one by default). Undefined when the
 * run recorded no conditions — an older record, or a run that did not opt in.
 */
export function recordedConditions(
  events: readonly TranscriptEvent[],
  runId?: string,
): RecordedConditions | undefined {
  const start = events.find(
    (event) => event.type === 'run_start' && (runId === undefined || event.run_id === runId),
  );
  const id = runId ?? start?.run_id;
  const end = events.find((event) => event.type === 'run_end' && event.run_id === id);
  const started = start?.type === 'run_start' ? start.conditions : undefined;
  const ended = end?.type === 'run_end' ? end.conditions : undefined;
  if (started === undefined && ended === undefined) return undefined;
  return parseRecordedConditions(merge(started ?? {}, ended ?? {}));
}
