import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { at } from '../__fixtures__/records.js';
import type { StopCause, TranscriptEvent } from '../schemas/transcript.js';
import {
  countUnprobeable,
  type ProbePoint,
  probeKey,
  probePoints,
  recordedResult,
  replayStart,
} from './probe-points.js';
import type { SignedEntry } from './signed-entry.js';

const runs = Number(process.env.MECHA_PROPERTY_RUNS ?? 300);
const base = (minute: number, runId = 'r1') => ({
  v: 1 as const,
  run_id: runId,
  at: new Date(Date.parse(at(0)) + minute * 60_000).toISOString(),
});
const act = (turn: number, kind: 'steer' | 'deny' | 'stop', runId = 'r1'): TranscriptEvent => ({
  ...base(turn, runId),
  type: 'intervention',
  turn,
  kind,
});
const call = (tool: string, target: string | null, runId = 'r1'): TranscriptEvent => ({
  ...base(1, runId),
  type: 'tool_call',
  turn: 1,
  call_id: `c-${tool}`,
  tool,
  ...(target === null ? {} : { target }),
});
const end = (cause: StopCause, runId = 'r1'): TranscriptEvent => ({
  ...base(9, runId),
  type: 'run_end',
  stop_cause: cause,
});
const said = (
  role: 'owner' | 'system' | 'assistant',
  turn: number,
  text: string,
  runId = 'r1',
): TranscriptEvent => ({
  ...base(turn, runId),
  type: 'message',
  turn,
  message_id: `m-${text}`,
  role,
  taint: 'clean',
  text,
});

describe('probePoints', () => {
  it('lists each steer and denial once per kind and turn, in order, never a stop', () => {
    const events = [
      said('system', 0, 'S'),
      act(1, 'stop'),
      act(2, 'steer'),
      act(2, 'deny', 'r2'),
      act(2, 'steer', 'r2'),
      act(3, 'deny'),
    ];
    expect(probePoints(events)).toEqual([
      { runId: 'r1', turn: 2, kind: 'steer', index: 2 },
      { runId: 'r2', turn: 2, kind: 'deny', index: 3 },
      { runId: 'r1', turn: 3, kind: 'deny', index: 5 },
    ]);
    expect(probeKey('deny', 7)).toBe('deny:7');
  });

  it('yields exactly the moment kinds a probe removes: steers and denials', () => {
    const events = [act(1, 'steer'), act(1, 'deny'), act(2, 'stop'), act(3, 'deny', 'r2')];
    const kinds = probePoints(events).map((point) => point.kind);
    expect(new Set(kinds)).toEqual(new Set(['steer', 'deny']));
  });

  it('counts only the rows with no probe point', () => {
    const entry = (row: string) => ({ row }) as unknown as SignedEntry;
    const rows = ['draftSentEdited', 'draftRejected', 'reflectorCorrection', 'ownerStop'];
    expect(countUnprobeable([...rows, 'ownerSteer', 'ownerDeny'].map(entry))).toBe(4);
  });
});

describe('recordedResult', () => {
  const point: ProbePoint = { runId: 'r1', turn: 1, kind: 'steer', index: 1 };

  it('collects the run’s calls after the point up to its end', () => {
    const events = [
      call('before', 'x'),
      act(1, 'steer'),
      call('shell', 'ls'),
      call('other', 'y', 'r2'),
      call('edit_file', null),
      end('completed'),
      call('after', 'z'),
    ];
    expect(recordedResult(events, point)).toEqual({
      state: 'gradeable',
      calls: [{ tool: 'shell', target: 'ls' }, { tool: 'edit_file' }],
    });
  });

  it('skips a compacted session, a run with no end and one that did not complete', () => {
    const compacted: TranscriptEvent = { ...base(0), type: 'compaction', turn: 0 };
    expect(recordedResult([compacted, act(1, 'steer'), end('completed')], point)).toEqual({
      state: 'skipped',
      reason: 'compacted',
    });
    expect(
      recordedResult([end('completed'), act(1, 'steer'), end('completed', 'r2')], point),
    ).toEqual({ state: 'skipped', reason: 'no_recorded_end' });
    expect(recordedResult([call('a', null), act(1, 'steer'), end('parked')], point)).toEqual({
      state: 'skipped',
      reason: 'not_completed',
    });
  });

  it('never counts the event at the point itself', () => {
    const events = [call('at-point', null), call('shell', 'ls'), end('completed')];
    expect(recordedResult(events, { ...point, index: 0 })).toEqual({
      state: 'gradeable',
      calls: [{ tool: 'shell', target: 'ls' }],
    });
  });

  it('the first end of the run decides', () => {
    const events = [call('a', null), act(1, 'steer'), end('parked'), end('completed')];
    expect(recordedResult(events, point)).toEqual({ state: 'skipped', reason: 'not_completed' });
  });
});

describe('replayStart', () => {
  const events = [
    said('system', 0, 'FIRST'),
    said('owner', 1, 'hello'),
    said('owner', 2, 'stop that'),
    said('owner', 2, 'other run', 'r2'),
    said('assistant', 2, 'ok'),
    said('system', 3, 'SECOND', 'r2'),
    said('owner', 4, 'later'),
    said('system', 5, 'THIRD'),
  ];
  const moment = { index: 7, runId: 'r1', turn: 2 };

  it('drops only the owner’s words at the moment’s turn in its run', () => {
    const { prefix } = replayStart(events, moment, 'none');
    expect(prefix.map((event) => (event.type === 'message' ? event.text : ''))).toEqual([
      'FIRST',
      'hello',
      'other run',
      'ok',
      'SECOND',
      'later',
    ]);
  });

  it('takes the covering, the first or no system prompt', () => {
    expect(replayStart(events, moment, 'covering').systemPrompt).toBe('SECOND');
    expect(replayStart(events, moment, 'first').systemPrompt).toBe('FIRST');
    expect(replayStart(events.slice(1), moment, 'first').systemPrompt).toBe('SECOND');
    expect(replayStart(events, moment, 'none')).not.toHaveProperty('systemPrompt');
    expect(replayStart([said('owner', 2, 'x')], moment, 'covering')).toEqual({ prefix: [] });
  });

  it('a negative index replays from nothing', () => {
    expect(replayStart(events, { ...moment, index: -1 }, 'covering')).toEqual({ prefix: [] });
  });

  it('the prefix is the events before the index, less the moment’s owner words', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2, max: events.length + 1 }), (index) => {
        const { prefix } = replayStart(events, { ...moment, index }, 'none');
        const before = events.slice(0, Math.max(0, index));
        const removed = before.filter(
          (event) =>
            event.type === 'message' &&
            event.role === 'owner' &&
            event.run_id === 'r1' &&
            event.turn === 2,
        );
        expect(prefix.length).toBe(before.length - removed.length);
        expect(prefix.every((event) => before.includes(event))).toBe(true);
      }),
      { numRuns: runs },
    );
  });
});
