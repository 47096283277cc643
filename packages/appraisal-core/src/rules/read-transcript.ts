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

type EventOf<T extends TranscriptEvent['type']> = Extract<TranscriptEvent, { type: T }>;

// The owner's stop, counted once per session: the run it first showed in, and the turn of the
// first stop intervention (a `stopped` end alone has no turn).
interface OwnerStop {
  readonly runId: string;
  readonly turn: number | undefined;
  readonly source?: EventSource | undefined;
}

// An imported event keeps where it came from; the entry it signs carries it along.
const from = (entry: SignedEntry, source: EventSource | undefined): SignedEntry =>
  source === undefined ? entry : { ...entry, source };

/** One transcript's reading as it is folded: the state, and one handler per event kind. */
class TranscriptFold {
  readonly entries: SignedEntry[] = [];
  readonly runs = new Map<string, RunSummary>();
  private readonly runGoals = new Map<string, GoalRef>();
  private readonly seen = new Set<string>();
  // Boredom notices recorded so far, by run.
  private readonly notices = new Map<string, number>();
  private sessionGoal: GoalRef | undefined;
  private compacted = false;
  private stop: OwnerStop | undefined;

  read(event: TranscriptEvent): void {
    switch (event.type) {
      case 'run_start':
        this.runStart(event);
        break;
      case 'intervention':
        this.intervention(event);
        break;
      case 'step_check':
        this.stepCheck(event);
        break;
      case 'counter':
        this.counterEvent(event);
        break;
      case 'run_end':
        this.runEnd(event);
        break;
      case 'compaction':
        this.compacted = true;
        break;
      case 'appraiser_verdict':
        if (this.once(`appraiser:${JSON.stringify(event.error)}`)) {
          this.entries.push({ row: 'legacyAppraiserVerdict', error: { ...event.error } });
        }
        break;
      default:
        break;
    }
  }

  reading(): TranscriptReading {
    const stop = this.stop;
    if (stop !== undefined) {
      const cite: Cite =
        stop.turn === undefined
          ? { kind: 'counter', name: 'stopped' }
          : { kind: 'turn', turn: stop.turn };
      this.entries.push(from(signEntry('ownerStop', cite, this.goalOf(stop.runId)), stop.source));
    }
    return {
      entries: this.entries,
      compacted: this.compacted,
      runs: this.runs,
      goal: this.sessionGoal,
    };
  }

  private goalOf(runId: string): GoalRef | undefined {
    return this.runGoals.get(runId) ?? this.sessionGoal;
  }

  private once(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  private runStart(event: EventOf<'run_start'>): void {
    if (event.goal !== undefined) {
      this.runGoals.set(event.run_id, event.goal);
      this.sessionGoal ??= event.goal;
    }
    this.runs.set(event.run_id, {
      startedAt: Date.parse(event.at),
      stopCause: this.runs.get(event.run_id)?.stopCause,
    });
  }

  private intervention(event: EventOf<'intervention'>): void {
    if (event.kind === 'stop') {
      if (this.stop?.turn === undefined) {
        this.stop = {
          runId: this.stop?.runId ?? event.run_id,
          turn: event.turn,
          source: event.source,
        };
      }
    } else if (this.once(`intervention:${event.turn}:${event.kind}`)) {
      const row = event.kind === 'steer' ? 'steer' : 'deny';
      this.entries.push(
        from(
          signEntry(row, { kind: 'turn', turn: event.turn }, this.goalOf(event.run_id)),
          event.source,
        ),
      );
    }
  }

  private stepCheck(event: EventOf<'step_check'>): void {
    if (event.passed || !this.once(`step:${event.step_id}:${event.turn}`)) return;
    this.entries.push(
      from(
        signEntry('stepCheckFailed', { kind: 'turn', turn: event.turn }, this.goalOf(event.run_id)),
        event.source,
      ),
    );
  }

  private counterEvent(event: EventOf<'counter'>): void {
    const trigger = counterTriggers.get(event.name);
    if (trigger === undefined || event.value <= 0) return;
    if (trigger.row === 'boredomNotice') this.boredom(trigger, event.run_id, event.value);
    else this.counter(trigger, event.run_id, event.source);
  }

  private runEnd(event: EventOf<'run_end'>): void {
    const run = this.runs.get(event.run_id);
    this.runs.set(event.run_id, {
      startedAt: run?.startedAt ?? Date.parse(event.at),
      stopCause: event.stop_cause,
    });
    if (event.stop_cause === 'stopped') {
      this.stop ??= { runId: event.run_id, turn: undefined, source: event.source };
    } else {
      const trigger = stopTriggers.get(event.stop_cause);
      if (trigger !== undefined) this.counter(trigger, event.run_id, event.source);
    }
  }

  private counter(trigger: CounterTrigger, runId: string, source?: EventSource): void {
    if (!this.once(`counter:${trigger.name}`)) return;
    this.entries.push(
      from(
        signEntry(trigger.row, { kind: 'counter', name: trigger.name }, this.goalOf(runId)),
        source,
      ),
    );
  }

  // Boredom notices sign once each: a run climbs at most the three rungs, so a run's notices
  // beyond three (a harness that recorded more) sign nothing more.
  private boredom(trigger: CounterTrigger, runId: string, value: number): void {
    const before = this.notices.get(runId) ?? 0;
    const after = Math.min(boredomRungCount, before + value);
    this.notices.set(runId, after);
    for (let notice = before; notice < after; notice += 1) {
      this.entries.push(
        signEntry(trigger.row, { kind: 'counter', name: trigger.name }, this.goalOf(runId)),
      );
    }
  }
}

/**
 * Reads the signed errors a transcript holds — interventions, counters, stop causes, declared
 * step checks and legacy appraiser verdicts — counting each once however many resumed runs
 * recorded it: interventions once per kind and turn, each counter kind once (boredom notices
 * once each, up to three per run), the owner's stop once, a step check once per step and turn.
 */
export function readTranscript(events: readonly TranscriptEvent[]): TranscriptReading {
  const fold = new TranscriptFold();
  for (const event of events) fold.read(event);
  return fold.reading();
}
