import type { ReplayPrompt } from '../ports/replayer.js';
import type { StopCause, TranscriptEvent } from '../schemas/transcript.js';
import type { SignedEntry, SignedRowId } from './signed-entry.js';

/** A replayable steer or denial: where it sits in the transcript and in its run. */
export interface ProbePoint {
  readonly runId: string;
  readonly turn: number;
  readonly kind: 'steer' | 'deny';
  /** The index of the intervention event in the transcript. */
  readonly index: number;
}

/** Why a probe point poses no question, so costs nothing and is skipped. */
export type ProbeSkipReason = 'compacted' | 'no_recorded_end' | 'not_completed';

/** What the recorded run did after the intervention: what an arm has to reach, or nothing. */
export type RecordedResult =
  | {
      readonly state: 'gradeable';
      readonly calls: readonly { readonly tool: string; readonly target?: string }[];
    }
  | { readonly state: 'skipped'; readonly reason: ProbeSkipReason };

/**
 * The rows whose moments have no probe point: draft edits and rejections, ordinary follow-up
 * turns the reflector judged corrections, and the owner's stop. They are counted unprobeable.
 */
export const unprobeableRows: ReadonlySet<SignedRowId> = new Set<SignedRowId>([
  'draftSentEdited',
  'draftRejected',
  'reflectorCorrection',
  'ownerStop',
]);

/** The key a probe resolution is kept under: an intervention's kind and turn. */
export function probeKey(kind: 'steer' | 'deny', turn: number): string {
  return `${kind}:${turn}`;
}

/**
 * The replayable steers and denials of a transcript, each once per kind and turn however many
 * resumed runs recorded it (as the contribution table signs them), in transcript order.
 */
export function probePoints(events: readonly TranscriptEvent[]): ProbePoint[] {
  const points: ProbePoint[] = [];
  const seen = new Set<string>();
  events.forEach((event, index) => {
    if (event.type !== 'intervention' || event.kind === 'stop') return;
    const key = probeKey(event.kind, event.turn);
    if (seen.has(key)) return;
    seen.add(key);
    points.push({ runId: event.run_id, turn: event.turn, kind: event.kind, index });
  });
  return points;
}

/** How many of a session's signed entries are moments with no probe point. */
export function countUnprobeable(entries: readonly SignedEntry[]): number {
  return entries.filter((entry) => unprobeableRows.has(entry.row as SignedRowId)).length;
}

/**
 * What the recorded run did after a probe point: the calls it made in the same run and how it
 * ended. A compacted session, a run with no recorded end, or one that did not complete has no
 * result for an arm to reach, so the point is skipped before anything is spent.
 */
export function recordedResult(
  events: readonly TranscriptEvent[],
  point: ProbePoint,
): RecordedResult {
  if (events.some((event) => event.type === 'compaction')) {
    return { state: 'skipped', reason: 'compacted' };
  }
  const calls: { tool: string; target?: string }[] = [];
  let stop: StopCause | undefined;
  for (const event of events.slice(point.index + 1)) {
    if (event.run_id !== point.runId) continue;
    if (event.type === 'tool_call') {
      calls.push(
        event.target === undefined
          ? { tool: event.tool }
          : { tool: event.tool, target: event.target },
      );
    } else if (event.type === 'run_end') {
      stop = event.stop_cause;
      break;
    }
  }
  if (stop === undefined) return { state: 'skipped', reason: 'no_recorded_end' };
  if (stop !== 'completed') return { state: 'skipped', reason: 'not_completed' };
  return { state: 'gradeable', calls };
}

/** The recorded prefix and system prompt one arm replays from. */
export interface ReplayStart {
  readonly prefix: readonly TranscriptEvent[];
  readonly systemPrompt?: string;
}

function systemText(event: TranscriptEvent): string | undefined {
  return event.type === 'message' && event.role === 'system' ? event.text : undefined;
}

/**
 * The prefix an arm replays from: every event before `index`, less the owner's words at the
 * moment's turn in its run (a probe removes the intervention, and with it what carried it), and
 * the system prompt the policy names. `covering` is the last system prompt recorded before the
 * moment — after a resume under another configuration that is the resumed run's, not the
 * session's first; replaying under the first would misread an ordinary resumed steer.
 */
export function replayStart(
  events: readonly TranscriptEvent[],
  moment: { readonly index: number; readonly runId: string; readonly turn: number },
  prompt: ReplayPrompt,
): ReplayStart {
  const before = events.slice(0, Math.max(0, moment.index));
  const prefix = before.filter(
    (event) =>
      !(
        event.type === 'message' &&
        event.role === 'owner' &&
        event.run_id === moment.runId &&
        event.turn === moment.turn
      ),
  );
  let systemPrompt: string | undefined;
  if (prompt === 'covering') {
    for (const event of before) systemPrompt = systemText(event) ?? systemPrompt;
  } else if (prompt === 'first') {
    for (const event of events) {
      systemPrompt = systemText(event);
      if (systemPrompt !== undefined) break;
    }
  }
  return systemPrompt === undefined ? { prefix } : { prefix, systemPrompt };
}
