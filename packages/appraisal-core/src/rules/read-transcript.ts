import type { Cite, GoalRef } from '../schemas/goal-error.js';
import type { EventSource, StopCause, TranscriptEvent } from '../schemas/transcript.js';
import { type SignedEntry, type SignedRowId, signEntry, signedRows } from './signed-entry.js';

/** One run as the transcript recorded it: when it began and how it ended. */
export interface RunSummary {
  readonly startedAt: number;
  readonly stopCause: StopCause | undefined;
}

/** What a transcript contributes: its signed entries, whether a run compacted, and its runs. */
export interface TranscriptReading {
  readonly entries: readonly SignedEntry[];
  readonly compacted: boolean;
  readonly runs: ReadonlyMap<string, RunSummary>;
  /** The goal the session named: the first run that named one. */
  readonly goal: GoalRef | undefined;
}

// The boredom detector's rungs (3, 6 and 12 repeats): the most notices one run can record.
const boredomRungCount = 3;

interface CounterTrigger {
  readonly row: SignedRowId;
  readonly name: string;
}

// Counter names and stop causes that sign, read off the table. A stop cause is cited by the
// counter name at the same position in its row (`loop` → `loop_stop`), or by its own name.
const counterTriggers = new Map<string, CounterTrigger>();
const stopTriggers = new Map<StopCause, CounterTrigger>();
for (const [id, row] of signedRows) {
  for (const name of row.counters) counterTriggers.set(name, { row: id, name });
  row.stopCauses.forEach((cause, index) => {
    stopTriggers.set(cause, { row: id, name: row.counters[index] ?? cause });
  });
}

/**
 * The event types a session's appraisal reads: those {@link readTranscript} signs from, and the
 * run starts and ends the label, the goal and the expectations look at. A transcript cut down
 * to these (and its last event) appraises exactly as the whole one does.
 */
export const appraisedEventTypes = [
  'run_start',
  'run_end',
  'intervention',
  'step_check',
  'counter',
  'compaction',
  'appraiser_verdict',
] as const satisfies readonly TranscriptEvent['type'][];

/**
 * Reads the signed errors a transcript holds — interventions, counters, stop causes, declared
 * step checks and legacy appraiser verdicts — counting each once however many resumed runs
 * recorded it: interventions once per kind and turn, each counter kind once (boredom notices
 * once each, up to three per run), the owner's stop once, a step check once per step and turn.
 */
export function readTranscript(events: readonly TranscriptEvent[]): TranscriptReading {
  const entries: SignedEntry[] = [];
  const runGoals = new Map<string, GoalRef>();
  const runs = new Map<string, { startedAt: number; stopCause: StopCause | undefined }>();
  const seen = new Set<string>();
  let sessionGoal: GoalRef | undefined;
  let compacted = false;
  // The owner's stop, counted once per session: the run it first showed in, and the turn of
  // the first stop intervention (a `stopped` end alone has no turn).
  let stop:
    | {
        readonly runId: string;
        readonly turn: number | undefined;
        readonly source?: EventSource | undefined;
      }
    | undefined;

  const goalOf = (runId: string): GoalRef | undefined => runGoals.get(runId) ?? sessionGoal;
  // An imported event keeps where it came from; the entry it signs carries it along.
  const from = (entry: SignedEntry, source: EventSource | undefined): SignedEntry =>
    source === undefined ? entry : { ...entry, source };
  const once = (key: string): boolean => {
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const counter = (trigger: CounterTrigger, runId: string, source?: EventSource): void => {
    if (once(`counter:${trigger.name}`)) {
      entries.push(
        from(
          signEntry(trigger.row, { kind: 'counter', name: trigger.name }, goalOf(runId)),
          source,
        ),
      );
    }
  };

  // Boredom notices sign once each: a run climbs at most the three rungs, so a run's notices
  // beyond three (a harness that recorded more) sign nothing more.
  const notices = new Map<string, number>();
  const boredom = (trigger: CounterTrigger, runId: string, value: number): void => {
    const before = notices.get(runId) ?? 0;
    const after = Math.min(boredomRungCount, before + value);
    notices.set(runId, after);
    for (let notice = before; notice < after; notice += 1) {
      entries.push(signEntry(trigger.row, { kind: 'counter', name: trigger.name }, goalOf(runId)));
    }
  };

  for (const event of events) {
    switch (event.type) {
      case 'run_start':
        if (event.goal !== undefined) {
          runGoals.set(event.run_id, event.goal);
          sessionGoal ??= event.goal;
        }
        runs.set(event.run_id, {
          startedAt: Date.parse(event.at),
          stopCause: runs.get(event.run_id)?.stopCause,
        });
        break;
      case 'intervention':
        if (event.kind === 'stop') {
          if (stop?.turn === undefined) {
            stop = { runId: stop?.runId ?? event.run_id, turn: event.turn, source: event.source };
          }
        } else if (once(`intervention:${event.turn}:${event.kind}`)) {
          const row = event.kind === 'steer' ? 'steer' : 'deny';
          entries.push(
            from(
              signEntry(row, { kind: 'turn', turn: event.turn }, goalOf(event.run_id)),
              event.source,
            ),
          );
        }
        break;
      case 'step_check':
        if (!event.passed && once(`step:${event.step_id}:${event.turn}`)) {
          entries.push(
            from(
              signEntry(
                'stepCheckFailed',
                { kind: 'turn', turn: event.turn },
                goalOf(event.run_id),
              ),
              event.source,
            ),
          );
        }
        break;
      case 'counter': {
        const trigger = counterTriggers.get(event.name);
        if (trigger === undefined || event.value <= 0) break;
        if (trigger.row === 'boredomNotice') boredom(trigger, event.run_id, event.value);
        else counter(trigger, event.run_id, event.source);
        break;
      }
      case 'run_end': {
        const run = runs.get(event.run_id);
        runs.set(event.run_id, {
          startedAt: run?.startedAt ?? Date.parse(event.at),
          stopCause: event.stop_cause,
        });
        if (event.stop_cause === 'stopped') {
          stop ??= { runId: event.run_id, turn: undefined, source: event.source };
        } else {
          const trigger = stopTriggers.get(event.stop_cause);
          if (trigger !== undefined) counter(trigger, event.run_id, event.source);
        }
        break;
      }
      case 'compaction':
        compacted = true;
        break;
      case 'appraiser_verdict':
        if (once(`appraiser:${JSON.stringify(event.error)}`)) {
          entries.push({ row: 'legacyAppraiserVerdict', error: { ...event.error } });
        }
        break;
      default:
        break;
    }
  }

  if (stop !== undefined) {
    const cite: Cite =
      stop.turn === undefined
        ? { kind: 'counter', name: 'stopped' }
        : { kind: 'turn', turn: stop.turn };
    entries.push(from(signEntry('ownerStop', cite, goalOf(stop.runId)), stop.source));
  }
  return { entries, compacted, runs, goal: sessionGoal };
}
