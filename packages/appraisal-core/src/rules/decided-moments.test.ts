import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { at } from '../__fixtures__/records.js';
import type { DraftOutcome, DraftStaged, OutboxRecord } from '../schemas/outbox.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { decidedMoments } from './decided-moments.js';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 300);

const base = (minute: number, runId = 'r1') => ({
  v: 1 as const,
  run_id: runId,
  at: new Date(Date.parse(at(0)) + minute * 60_000).toISOString(),
});
const call = (
  minute: number,
  turn: number,
  callId: string,
  tool = 'shell',
  target: string | null = 'ls',
  runId = 'r1',
): TranscriptEvent => ({
  ...base(minute, runId),
  type: 'tool_call',
  turn,
  call_id: callId,
  tool,
  ...(target === null ? {} : { target }),
});
const result = (
  minute: number,
  turn: number,
  callId: string,
  status: 'denied' | 'ok' = 'denied',
  runId = 'r1',
): TranscriptEvent => ({
  ...base(minute, runId),
  type: 'tool_result',
  turn,
  call_id: callId,
  status,
  taint: 'clean',
});
const act = (
  minute: number,
  turn: number,
  kind: 'steer' | 'deny' | 'stop',
  runId = 'r1',
): TranscriptEvent => ({ ...base(minute, runId), type: 'intervention', turn, kind });
const staged = (
  minute: number,
  draftId: string,
  options: { runId?: string; text?: string; tool?: string; sessionId?: string } = {},
): DraftStaged => ({
  v: 1,
  type: 'staged',
  at: base(minute).at,
  draft_id: draftId,
  session_id: options.sessionId ?? 's-1',
  tool: options.tool ?? 'mail_send',
  taint: 'clean',
  ...(options.runId === undefined ? {} : { run_id: options.runId }),
  ...(options.text === undefined ? {} : { text: options.text }),
});
const verdict = (
  minute: number,
  draftId: string,
  result: DraftOutcome['outcome'],
): DraftOutcome => ({
  v: 2,
  type: 'outcome',
  at: base(minute).at,
  draft_id: draftId,
  outcome: result,
  sender: 'owner',
});

describe('decidedMoments: steers and denials', () => {
  it('counts the steered call among its run’s calls of the same turn only', () => {
    const events = [
      call(0, 1, 'c0', 'shell', 'pwd', 'r0'), // another run, same turn
      call(0, 0, 'c1'), // same run, earlier turn
      call(1, 1, 'c2'),
      call(1, 1, 'c3', 'edit_file', null),
      act(2, 1, 'steer'),
    ];
    const [moment] = decidedMoments('s-1', events, []);
    expect(moment).toEqual({
      id: 'steer:1',
      kind: 'steer',
      moment: 'steer',
      runId: 'r1',
      turn: 1,
      index: 3,
      point: { turn: 1, call: 1 },
      validator: 'steered_call',
      refused: { kind: 'call', tool: 'edit_file' },
    });
  });

  it('numbers the call within its own run, however many calls another run made that turn', () => {
    const events = [
      call(0, 1, 'c0', 'shell', 'pwd', 'r0'),
      call(0, 1, 'c1', 'shell', 'ls', 'r0'),
      call(0, 1, 'c2', 'shell', 'cat', 'r0'),
      call(1, 1, 'c3'),
      call(1, 1, 'c4', 'edit_file', 'a.md'),
      act(2, 1, 'steer'),
    ];
    const [moment] = decidedMoments('s-1', events, []);
    expect(moment).toMatchObject({ index: 4, point: { turn: 1, call: 1 } });
  });

  it('poses a denial at the denied call, not the run’s last call', () => {
    const events = [
      call(0, 2, 'c1', 'shell', 'rm -rf build'),
      result(0, 2, 'c1'),
      call(1, 2, 'c2', 'shell', 'ls'),
      result(1, 2, 'c2', 'ok'),
      call(1, 2, 'c3', 'shell', 'cat', 'r2'),
      result(1, 2, 'c3', 'denied', 'r2'),
      act(2, 2, 'deny'),
    ];
    const [moment] = decidedMoments('s-1', events, []);
    expect(moment).toMatchObject({
      id: 'deny:2',
      moment: 'refusal',
      validator: 'denied_call',
      index: 0,
      point: { turn: 2, call: 0 },
      refused: { kind: 'call', tool: 'shell', target: 'rm -rf build' },
    });
  });

  it('poses a steer at the run’s last call, even when an earlier call was denied', () => {
    const events = [
      call(0, 2, 'c1', 'shell', 'rm -rf build'),
      result(0, 2, 'c1'),
      call(1, 2, 'c2', 'edit_file', 'notes.md'),
      result(1, 2, 'c2', 'ok'),
      act(2, 2, 'steer'),
    ];
    const [moment] = decidedMoments('s-1', events, []);
    expect(moment).toMatchObject({
      id: 'steer:2',
      index: 2,
      point: { turn: 2, call: 1 },
      refused: { kind: 'call', tool: 'edit_file', target: 'notes.md' },
    });
  });

  it('falls back to the run’s last call when no call of it was denied', () => {
    const events = [call(0, 2, 'c1'), call(1, 2, 'c2', 'shell', 'ls', 'r2'), act(2, 2, 'deny')];
    const [moment] = decidedMoments('s-1', events, []);
    expect(moment).toMatchObject({ index: 0, point: { turn: 2, call: 0 } });
  });

  it('with no call before it, starts at the intervention and cannot be posed', () => {
    const events = [call(0, 1, 'c0', 'shell', 'ls', 'r2'), act(1, 3, 'steer'), call(2, 4, 'c1')];
    const moments = decidedMoments('s-1', events, []);
    expect(moments).toEqual([
      {
        id: 'steer:3',
        kind: 'steer',
        moment: 'steer',
        runId: 'r1',
        turn: 3,
        index: 1,
        point: { turn: 3 },
        validator: 'steered_call',
      },
    ]);
  });

  it('skips stops and repeats of one intervention', () => {
    const events = [call(0, 1, 'c1'), act(1, 1, 'stop'), act(1, 1, 'steer'), act(2, 1, 'steer')];
    const moments = decidedMoments('s-1', events, []);
    expect(moments.map((moment) => moment.id)).toEqual(['steer:1']);
  });
});

describe('decidedMoments: drafts', () => {
  it('poses a rejected draft at the call that staged it, with its text', () => {
    const events = [
      call(0, 1, 'c1', 'mail_send', 'bob'),
      call(1, 1, 'c2', 'shell', 'ls'),
      call(3, 2, 'c3', 'mail_send', 'carol'),
    ];
    const outbox: OutboxRecord[] = [
      staged(2, 'd-1', { runId: 'r1', text: 'Hi Bob' }),
      verdict(5, 'd-1', 'rejected'),
      verdict(6, 'd-1', 'sent_unchanged'),
    ];
    expect(decidedMoments('s-1', events, outbox)).toEqual([
      {
        id: 'draft:d-1',
        kind: 'draft_rejected',
        moment: 'draft_rejected',
        runId: 'r1',
        turn: 1,
        index: 0,
        point: { turn: 1, call: 0, draft_id: 'd-1' },
        validator: 'rejected_draft',
        refused: { kind: 'draft', text: 'Hi Bob' },
      },
    ]);
  });

  it('poses a rewritten draft; a blank text cannot be posed', () => {
    const events = [call(0, 1, 'c1', 'mail_send', 'bob')];
    const outbox = [
      staged(2, 'd-1', { runId: 'r1', text: '  ' }),
      verdict(5, 'd-1', 'sent_edited'),
    ];
    const [moment] = decidedMoments('s-1', events, outbox);
    expect(moment).toEqual({
      id: 'draft:d-1',
      kind: 'draft_rewritten',
      moment: 'draft_rewritten',
      runId: 'r1',
      turn: 1,
      index: 0,
      point: { turn: 1, call: 0, draft_id: 'd-1' },
      validator: 'rewritten_draft',
    });
  });

  it('leaves out drafts sent unchanged, cancelled, undecided or of another session', () => {
    const outbox = [
      staged(1, 'd-1'),
      verdict(2, 'd-1', 'sent_unchanged'),
      staged(1, 'd-2'),
      verdict(2, 'd-2', 'cancelled'),
      staged(1, 'd-3'),
      staged(1, 'd-4', { sessionId: 's-2' }),
      verdict(2, 'd-4', 'rejected'),
    ];
    expect(decidedMoments('s-1', [call(0, 1, 'c1', 'mail_send')], outbox)).toEqual([]);
  });

  it('without the staging call, starts at the first event after the staging', () => {
    const events = [
      call(0, 1, 'c1', 'shell', 'ls', 'r7'),
      call(2, 1, 'c2', 'shell', 'ls', 'r8'), // at the staging's own minute: not after it
      call(3, 2, 'c3', 'shell', 'ls', 'r9'),
    ];
    const outbox = [staged(2, 'd-1', { text: 'x' }), verdict(5, 'd-1', 'rejected')];
    expect(decidedMoments('s-1', events, outbox)).toEqual([
      {
        id: 'draft:d-1',
        kind: 'draft_rejected',
        moment: 'draft_rejected',
        runId: 'r8',
        turn: 0,
        index: 2,
        point: { draft_id: 'd-1' },
        validator: 'rejected_draft',
        refused: { kind: 'draft', text: 'x' },
      },
    ]);
  });

  it('staged before every event, without its staging call, starts at the first event', () => {
    const events = [call(3, 1, 'c1', 'shell', 'ls', 'r7'), call(4, 1, 'c2', 'shell', 'ls', 'r7')];
    const outbox = [staged(2, 'd-1', { text: 'x' }), verdict(5, 'd-1', 'rejected')];
    expect(decidedMoments('s-1', events, outbox)).toEqual([
      {
        id: 'draft:d-1',
        kind: 'draft_rejected',
        moment: 'draft_rejected',
        runId: 'r7',
        turn: 0,
        index: 0,
        point: { draft_id: 'd-1' },
        validator: 'rejected_draft',
        refused: { kind: 'draft', text: 'x' },
      },
    ]);
  });

  it('staged after every event starts at the end; with no events the run is unknown', () => {
    const events = [call(0, 1, 'c1', 'shell', 'ls', 'r7')];
    const outbox = [staged(2, 'd-1'), verdict(5, 'd-1', 'rejected')];
    expect(decidedMoments('s-1', events, outbox)[0]).toMatchObject({ index: 1, runId: 'r7' });
    expect(decidedMoments('s-1', [], outbox)[0]).toMatchObject({ index: 0, runId: '' });
  });

  it('orders interventions and drafts by where their replay starts; a draft is posed once', () => {
    const events = [
      call(0, 1, 'c1', 'shell', 'ls'),
      act(1, 1, 'steer'),
      call(2, 2, 'c2', 'mail_send', 'bob'),
      call(4, 3, 'c3', 'shell', 'ls'),
      act(5, 3, 'steer'),
    ];
    const outbox = [
      staged(3, 'd-1', { runId: 'r1', text: 'a' }),
      staged(3.5, 'd-1', { runId: 'r1', text: 'b' }),
      verdict(6, 'd-1', 'sent_edited'),
    ];
    const moments = decidedMoments('s-1', events, outbox);
    expect(moments.map((moment) => [moment.id, moment.index])).toEqual([
      ['steer:1', 0],
      ['draft:d-1', 2],
      ['steer:3', 3],
    ]);
    expect(moments[1]?.refused).toEqual({ kind: 'draft', text: 'a' });
  });
});

describe('decidedMoments: invariants', () => {
  const eventArb = fc.oneof(
    fc
      .record({
        run: fc.constantFrom('r1', 'r2'),
        turn: fc.nat(3),
        tool: fc.constantFrom('shell', 'mail_send'),
      })
      .map((e) => ({ kind: 'call' as const, ...e })),
    fc
      .record({ run: fc.constantFrom('r1', 'r2'), turn: fc.nat(3), denied: fc.boolean() })
      .map((e) => ({ kind: 'result' as const, ...e })),
    fc
      .record({
        run: fc.constantFrom('r1', 'r2'),
        turn: fc.nat(3),
        act: fc.constantFrom('steer', 'deny', 'stop') as fc.Arbitrary<'steer' | 'deny' | 'stop'>,
      })
      .map((e) => ({ kind: 'act' as const, ...e })),
  );

  it('each moment is unique, sorted, starts inside the transcript and names a call it refused', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 12 }), (shapes) => {
        let lastCall = 'c-none';
        const events = shapes.map((shape, index): TranscriptEvent => {
          if (shape.kind === 'call') {
            lastCall = `c${index}`;
            return call(index, shape.turn, lastCall, shape.tool, 'x', shape.run);
          }
          if (shape.kind === 'result')
            return result(index, shape.turn, lastCall, shape.denied ? 'denied' : 'ok', shape.run);
          return act(index, shape.turn, shape.act, shape.run);
        });
        const moments = decidedMoments('s-1', events, []);
        const ids = moments.map((moment) => moment.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (let index = 1; index < moments.length; index += 1) {
          expect(moments[index - 1]?.index).toBeLessThanOrEqual(moments[index]?.index ?? 0);
        }
        for (const moment of moments) {
          expect(moment.id.startsWith('stop')).toBe(false);
          const start = events[moment.index];
          if (moment.refused === undefined) {
            expect(start?.type).toBe('intervention');
            continue;
          }
          expect(start?.type).toBe('tool_call');
          expect(start?.run_id).toBe(moment.runId);
          expect(moment.index).toBeLessThan(
            events.findIndex(
              (event) =>
                event.type === 'intervention' &&
                `${event.kind}:${event.turn}` === moment.id &&
                event.run_id === moment.runId,
            ),
          );
        }
      }),
      { numRuns: runs },
    );
  });
});
