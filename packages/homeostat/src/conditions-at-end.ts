import type { ConditionsSnapshot, SourceRead, StoreFlowRecord } from '@mecha/appraisal-core';
import { commitmentStores } from '@mecha/charter';
import { peakReading } from './peak-reading.js';
import type { PendingRow, PendingStores } from './pending-commitments.js';

/** What one turn recorded about its prompt; either may be absent when it was not measured. */
export interface TurnReading {
  /** Prompt tokens the turn sent. */
  readonly promptTokens?: number;
  /** The share of the context window that prompt took (0.5 is half full). */
  readonly contextPressure?: number;
}

/** The backlog at both ends of a run (either may be missing) and what each turn measured. */
export interface EndOfRunInput {
  readonly before?: PendingStores;
  readonly after?: PendingStores;
  readonly turns: readonly TurnReading[];
}

function owedIds(source: SourceRead<PendingRow>): Set<string> | undefined {
  if (source.state === 'unreadable') return undefined;
  return new Set(source.records.filter((row) => row.status !== 'needs_info').map((row) => row.id));
}

/**
 * How one store moved between two reads, item by item: the ids waiting on the owner after but
 * not before (added) and before but not after (cleared). A request parked on its requester no
 * longer waits on the owner, so parking one clears it. Undefined when either read failed.
 */
export function storeFlow(
  before: SourceRead<PendingRow>,
  after: SourceRead<PendingRow>,
): StoreFlowRecord | undefined {
  const from = owedIds(before);
  const to = owedIds(after);
  if (from === undefined || to === undefined) return undefined;
  return {
    added: [...to].filter((id) => !from.has(id)).sort(),
    cleared: [...from].filter((id) => !to.has(id)).sort(),
    complete: before.state === 'read' && after.state === 'read',
  };
}

/**
 * The part of the snapshot only the end of a run can know: the backlog's flow over the run,
 * store by store, and the peak prompt and context pressure over its turns — maxima, never sums.
 * Whatever could not be measured is absent, with its reason under `unread`.
 */
export function conditionsAtEnd(input: EndOfRunInput): ConditionsSnapshot {
  const snapshot: ConditionsSnapshot = {};
  const unread: Record<string, string> = {};
  const delta: NonNullable<ConditionsSnapshot['backlog_delta']> = {};
  for (const store of commitmentStores) {
    const before = input.before?.[store];
    const after = input.after?.[store];
    const flow = before && after ? storeFlow(before, after) : undefined;
    if (flow !== undefined) {
      delta[store] = flow;
      continue;
    }
    const failed = [before, after].find((source) => source?.state === 'unreadable');
    unread[`backlog_delta.${store}`] =
      failed?.state === 'unreadable'
        ? failed.reason
        : `the store was not read at the ${before ? 'end' : 'start'} of the run`;
  }
  if (Object.keys(delta).length > 0) snapshot.backlog_delta = delta;

  const tokens = peakReading(input.turns.map((turn) => turn.promptTokens));
  if (tokens !== undefined && Number.isFinite(tokens) && tokens >= 0) {
    snapshot.peak_prompt_tokens = Math.round(tokens);
  } else unread.peak_prompt_tokens = 'no turn recorded its prompt size';
  const pressure = peakReading(input.turns.map((turn) => turn.contextPressure));
  if (pressure !== undefined && Number.isFinite(pressure) && pressure >= 0) {
    snapshot.peak_context_pressure = pressure;
  } else unread.peak_context_pressure = 'no turn recorded its context pressure';

  if (Object.keys(unread).length > 0) snapshot.unread = unread;
  return snapshot;
}
