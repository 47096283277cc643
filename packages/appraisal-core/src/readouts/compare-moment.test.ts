import { describe, expect, it } from 'vitest';
import { at, outcome, staged } from '../__fixtures__/records.js';
import type { ReplayScriptEntry } from '../ports/scripted-replayer.js';
import { createScriptedReplayer } from '../ports/scripted-replayer.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { compareMoment, comparePolicies } from './compare-moment.js';

const base = (minute: number, runId = 'r1') => ({
  v: 1 as const,
  run_id: runId,
  at: new Date(Date.parse(at(0)) + minute * 60_000).toISOString(),
});

/** A session under FIRST, resumed under SECOND, with a denied call, a steer and a staged draft. */
const events: TranscriptEvent[] = [
  { ...base(0), type: 'run_start', session_id: 's-1', surface: 'cli', session_kind: 'ordinary' },
  {
    ...base(0),
    type: 'message',
    turn: 0,
    message_id: 'm0',
    role: 'system',
    taint: 'clean',
    text: 'FIRST',
  },
  { ...base(1), type: 'tool_call', turn: 1, call_id: 'c1', tool: 'shell', target: 'rm -rf build' },
  { ...base(1), type: 'tool_result', turn: 1, call_id: 'c1', status: 'denied', taint: 'clean' },
  { ...base(1), type: 'intervention', turn: 1, kind: 'deny' },
  { ...base(2), type: 'run_end', stop_cause: 'parked' },
  {
    ...base(3, 'r2'),
    type: 'run_start',
    session_id: 's-1',
    surface: 'cli',
    session_kind: 'ordinary',
    resumed: true,
  },
  {
    ...base(3, 'r2'),
    type: 'message',
    turn: 2,
    message_id: 'm2',
    role: 'system',
    taint: 'clean',
    text: 'SECOND',
  },
  {
    ...base(4, 'r2'),
    type: 'tool_call',
    turn: 3,
    call_id: 'c2',
    tool: 'edit_file',
    target: 'a.ts',
  },
  {
    ...base(4, 'r2'),
    type: 'message',
    turn: 4,
    message_id: 'm4',
    role: 'owner',
    taint: 'clean',
    text: 'not a.ts',
  },
  { ...base(4, 'r2'), type: 'intervention', turn: 4, kind: 'steer' },
  {
    ...base(5, 'r2'),
    type: 'tool_call',
    turn: 5,
    call_id: 'c3',
    tool: 'mail_send',
    target: 'ana@example.com',
  },
  { ...base(6, 'r2'), type: 'run_end', stop_cause: 'completed' },
];
const outbox = [
  {
    ...staged('d-1', 's-1', { text: 'Dear Ana,  the build is fixed.' }),
    at: base(5).at,
    run_id: 'r2',
  },
  outcome('d-1', 'rejected', { at: 8 }),
];

const options = (extra: Partial<Parameters<typeof compareMoment>[4]> = {}) => ({
  policies: [comparePolicies.covering, comparePolicies.none],
  workspace: '/work/project',
  now: new Date(at(10)),
  comparisonId: 'cmp-1',
  digest: (text: string) => text.length.toString(16).padStart(12, '0'),
  ...extra,
});

const arm = (
  policy: string,
  outcome: ReplayScriptEntry['outcome'],
  turn = 5,
): ReplayScriptEntry => ({
  session_id: 's-1',
  turn,
  policy,
  outcome,
});

describe('compareMoment', () => {
  it('separates the arm that drafted the rejected text from the one that did not', async () => {
    const replayer = createScriptedReplayer([
      arm('covering', {
        state: 'ended',
        stop_cause: 'completed',
        drafts: [{ text: 'Dear Ana, the build is fixed.' }],
        model: 'm-1',
      }),
      arm('none', { state: 'ended', stop_cause: 'completed' }),
    ]);
    const found = await compareMoment('s-1', events, outbox, replayer, options());
    expect(found.state).toBe('compared');
    if (found.state !== 'compared') return;
    expect(found.record).toEqual({
      v: 1,
      comparison_id: 'cmp-1',
      at: at(10),
      session_id: 's-1',
      moment: 'draft_rejected',
      point: { turn: 5, call: 0, draft_id: 'd-1' },
      model: 'm-1',
      verdict: 'separated',
      decided_by: 'validator',
      validator: 'rejected_draft',
      arms: [
        {
          policy: 'covering',
          prompt: 'covering',
          prompt_digest: '000000000006',
          result: 'did_refused',
        },
        { policy: 'none', prompt: 'none', result: 'did_not' },
      ],
    });
    // The arm starts before the call that staged the draft, under the prompt that covered it.
    expect(replayer.requests[0]?.systemPrompt).toBe('SECOND');
    expect(
      replayer.requests[0]?.prefix.some(
        (event) => event.type === 'tool_call' && event.tool === 'mail_send',
      ),
    ).toBe(false);
    expect(replayer.requests[1]?.systemPrompt).toBeUndefined();
  });

  it('checks a denial against the denied call, and ties when every arm makes it', async () => {
    const denied = {
      state: 'ended' as const,
      stop_cause: 'completed' as const,
      calls: [{ tool: 'shell', target: 'rm -rf build' }],
    };
    const replayer = createScriptedReplayer([{ session_id: 's-1', turn: 1, outcome: denied }]);
    const found = await compareMoment('s-1', events, outbox, replayer, options({ at: 'deny:1' }));
    expect(found.state === 'compared' && found.record).toMatchObject({
      moment: 'refusal',
      verdict: 'tied',
      validator: 'denied_call',
      point: { turn: 1, call: 0 },
    });
    expect(replayer.requests[0]?.systemPrompt).toBe('FIRST');
  });

  it('checks a steer against the call steered away from, and is inconclusive when an arm fails', async () => {
    const replayer = createScriptedReplayer([
      arm(
        'covering',
        { state: 'ended', stop_cause: 'completed', calls: [{ tool: 'edit_file', target: 'a.ts' }] },
        4,
      ),
    ]);
    const found = await compareMoment('s-1', events, outbox, replayer, options({ at: 'steer:4' }));
    expect(found.state === 'compared' && found.record).toMatchObject({
      moment: 'steer',
      verdict: 'inconclusive',
      validator: 'steered_call',
      arms: [
        { policy: 'covering', result: 'did_refused' },
        { policy: 'none', result: 'ungraded' },
      ],
    });
    expect(found.state === 'compared' && found.record.decided_by).toBeUndefined();
  });

  it('records an unposed moment without driving anything, and names the moments when --at misses', async () => {
    const replayer = createScriptedReplayer([]);
    const bare = outbox.map((record) =>
      record.type === 'staged' ? { ...record, text: undefined } : record,
    );
    const found = await compareMoment('s-1', events, bare as typeof outbox, replayer, options());
    expect(found.state === 'compared' && found.record.verdict).toBe('unposed');
    expect(replayer.requests).toHaveLength(0);
    const missed = await compareMoment(
      's-1',
      events,
      outbox,
      replayer,
      options({ at: 'steer:99' }),
    );
    expect(missed).toEqual({ state: 'no_moment', moments: ['deny:1', 'steer:4', 'draft:d-1'] });
  });

  it('does not replay a moment already decided under the same policies', async () => {
    const replayer = createScriptedReplayer([
      arm('covering', {
        state: 'ended',
        stop_cause: 'completed',
        drafts: [{ text: 'Dear Ana, the build is fixed.' }],
      }),
      arm('none', { state: 'ended', stop_cause: 'completed' }),
    ]);
    const first = await compareMoment('s-1', events, outbox, replayer, options());
    if (first.state !== 'compared') throw new Error('expected a comparison');
    const again = await compareMoment(
      's-1',
      events,
      outbox,
      replayer,
      options({ comparisonId: 'cmp-2', existing: [first.record] }),
    );
    expect(again).toMatchObject({ state: 'already', record: { comparison_id: 'cmp-1' } });
    expect(replayer.requests).toHaveLength(2);
    const otherPolicies = await compareMoment(
      's-1',
      events,
      outbox,
      replayer,
      options({
        comparisonId: 'cmp-3',
        existing: [first.record],
        policies: [comparePolicies.first, comparePolicies.none],
      }),
    );
    expect(otherPolicies.state).toBe('compared');
  });
});
