import type { ReplayMomentKind } from '../ports/replayer.js';
import type { ComparisonPoint, ComparisonValidator } from '../schemas/comparisons.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { firstVerdicts } from './owner-acts.js';
import { chronological } from './record-order.js';

/** What the owner refused at a moment, as a structural check can test it. */
export type Refused =
  | { readonly kind: 'call'; readonly tool: string; readonly target?: string }
  | { readonly kind: 'draft'; readonly text: string };

/**
 * A moment the owner already decided — a steer, a refusal, a draft rewritten or rejected — with
 * where a replay of it starts (`index` into the transcript), the check that fits it and what
 * the owner refused. `refused` is absent when no structural check can pose the moment.
 */
export interface DecidedMoment {
  /** How `--at` names it: `steer:4`, `deny:4`, `draft:d-1`. */
  readonly id: string;
  readonly kind: ReplayMomentKind;
  /** The kind as a comparison records it. */
  readonly moment: 'steer' | 'refusal' | 'draft_rewritten' | 'draft_rejected';
  readonly runId: string;
  readonly turn: number;
  readonly index: number;
  readonly point: ComparisonPoint;
  readonly validator: ComparisonValidator;
  readonly refused?: Refused;
}

function callPoint(
  events: readonly TranscriptEvent[],
  index: number,
): { turn: number; call: number } | undefined {
  const event = events[index];
  if (event?.type !== 'tool_call') return undefined;
  let call = 0;
  for (const earlier of events.slice(0, index)) {
    if (
      earlier.type === 'tool_call' &&
      earlier.run_id === event.run_id &&
      earlier.turn === event.turn
    ) {
      call += 1;
    }
  }
  return { turn: event.turn, call };
}

function lastCallBefore(
  events: readonly TranscriptEvent[],
  before: number,
  runId: string,
  accept: (index: number) => boolean = () => true,
): number | undefined {
  for (let index = before - 1; index >= 0; index -= 1) {
    const event = events[index];
    if (event?.type === 'tool_call' && event.run_id === runId && accept(index)) return index;
  }
  return undefined;
}

function refusedCall(event: TranscriptEvent | undefined): Refused | undefined {
  if (event?.type !== 'tool_call') return undefined;
  return event.target === undefined
    ? { kind: 'call', tool: event.tool }
    : { kind: 'call', tool: event.tool, target: event.target };
}

/**
 * The decided moments of one session, in transcript order: each steer (the call it steered away
 * from is the run's last before it), each denial (the call whose result was denied), and each
 * draft the owner rewrote or rejected (its staged text; the replay starts at the call that
 * staged it). A moment whose refused act was not recorded has no `refused` and cannot be posed.
 */
export function decidedMoments(
  sessionId: string,
  events: readonly TranscriptEvent[],
  outbox: readonly OutboxRecord[],
): DecidedMoment[] {
  const moments: DecidedMoment[] = [];
  const seen = new Set<string>();
  const denied = new Set<string>();
  for (const event of events) {
    if (event.type === 'tool_result' && event.status === 'denied') denied.add(event.call_id);
  }
  events.forEach((event, index) => {
    if (event.type !== 'intervention' || event.kind === 'stop') return;
    const id = `${event.kind}:${event.turn}`;
    if (seen.has(id)) return;
    seen.add(id);
    const found =
      event.kind === 'deny'
        ? (lastCallBefore(events, index, event.run_id, (at) => {
            const call = events[at];
            return call?.type === 'tool_call' && denied.has(call.call_id);
          }) ?? lastCallBefore(events, index, event.run_id))
        : lastCallBefore(events, index, event.run_id);
    const refused = found === undefined ? undefined : refusedCall(events[found]);
    moments.push({
      id,
      kind: event.kind,
      moment: event.kind === 'steer' ? 'steer' : 'refusal',
      runId: event.run_id,
      turn: event.turn,
      index: found ?? index,
      point: (found === undefined ? undefined : callPoint(events, found)) ?? { turn: event.turn },
      validator: event.kind === 'steer' ? 'steered_call' : 'denied_call',
      ...(refused === undefined ? {} : { refused }),
    });
  });

  const verdicts = firstVerdicts(outbox);
  const drafted: { at: number; moment: DecidedMoment }[] = [];
  for (const record of chronological(outbox)) {
    if (record.type !== 'staged' || record.session_id !== sessionId) continue;
    const verdict = verdicts.get(record.draft_id)?.outcome;
    if (verdict !== 'rejected' && verdict !== 'sent_edited') continue;
    const id = `draft:${record.draft_id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const stagedAt = Date.parse(record.at);
    let index = events.findIndex((event) => Date.parse(event.at) > stagedAt);
    if (index < 0) index = events.length;
    const call = lastCallBefore(events, index, record.run_id ?? '', (at) => {
      const event = events[at];
      return event?.type === 'tool_call' && event.tool === record.tool;
    });
    const start = call ?? index;
    const runId =
      record.run_id ?? (events[Math.max(0, start - 1)]?.run_id as string | undefined) ?? '';
    const point = call === undefined ? undefined : callPoint(events, call);
    const rejected = verdict === 'rejected';
    drafted.push({
      at: stagedAt,
      moment: {
        id,
        kind: rejected ? 'draft_rejected' : 'draft_rewritten',
        moment: rejected ? 'draft_rejected' : 'draft_rewritten',
        runId,
        turn: point?.turn ?? 0,
        index: start,
        point: { ...point, draft_id: record.draft_id },
        validator: rejected ? 'rejected_draft' : 'rewritten_draft',
        ...(record.text === undefined || record.text.trim() === ''
          ? {}
          : { refused: { kind: 'draft' as const, text: record.text } }),
      },
    });
  }
  moments.push(...drafted.map((entry) => entry.moment));
  return moments.sort((a, b) => a.index - b.index);
}
