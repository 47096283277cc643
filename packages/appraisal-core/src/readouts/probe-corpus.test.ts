import { describe, expect, it } from 'vitest';
import { memoryPorts } from '../__fixtures__/memory-ports.js';
import { at, outcome, staged } from '../__fixtures__/records.js';
import type { ReplayScriptEntry } from '../ports/scripted-replayer.js';
import { createScriptedReplayer } from '../ports/scripted-replayer.js';
import type { GoalRef } from '../schemas/goal-error.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { appraiseCorpus } from './appraise-corpus.js';
import { probeCorpus } from './probe-corpus.js';

const now = new Date(at(48));

interface Steer {
  readonly turn: number;
  readonly kind?: 'steer' | 'deny';
}

/**
 * One session: a run under system prompt `system` that is steered at each of `steers`, makes
 * `calls` after the last one and ends with `stop` (null: no recorded end); `resumedUnder` adds
 * a resumed run under another system prompt, steered at turn 20.
 */
function steered(
  sessionId: string,
  options: {
    steers?: readonly Steer[];
    calls?: readonly string[];
    stop?: 'completed' | 'stopped' | null;
    goal?: GoalRef;
    system?: string;
    resumedUnder?: string;
    compacted?: boolean;
    hour?: number;
  } = {},
) {
  const runId = `${sessionId}-r1`;
  const base = { v: 1 as const, at: at(options.hour ?? 0), run_id: runId };
  const events: TranscriptEvent[] = [
    {
      ...base,
      type: 'run_start',
      session_id: sessionId,
      surface: 'cli',
      session_kind: 'ordinary',
      ...(options.goal === undefined ? {} : { goal: options.goal }),
    },
    {
      ...base,
      type: 'message',
      turn: 0,
      message_id: `${runId}-sys`,
      role: 'system',
      taint: 'clean',
      text: options.system ?? 'first prompt',
    },
    {
      ...base,
      type: 'message',
      turn: 0,
      message_id: `${runId}-m0`,
      role: 'owner',
      taint: 'clean',
      text: 'tidy the repo',
    },
  ];
  for (const steer of options.steers ?? [{ turn: 2 }]) {
    events.push(
      {
        ...base,
        type: 'message',
        turn: steer.turn,
        message_id: `${runId}-m${steer.turn}`,
        role: 'owner',
        taint: 'clean',
        text: 'no, not that file',
      },
      { ...base, type: 'intervention', turn: steer.turn, kind: steer.kind ?? 'steer' },
    );
  }
  if (options.compacted) events.push({ ...base, type: 'compaction', turn: 9 });
  (options.calls ?? ['edit_file']).forEach((tool, index) => {
    events.push({
      ...base,
      type: 'tool_call',
      turn: 10 + index,
      call_id: `${runId}-c${index}`,
      tool,
      target: 'src/a.ts',
    });
  });
  if (options.stop !== null) {
    events.push({ ...base, type: 'run_end', stop_cause: options.stop ?? 'completed' });
  }
  if (options.resumedUnder !== undefined) {
    const resumed = { v: 1 as const, at: at((options.hour ?? 0) + 1), run_id: `${sessionId}-r2` };
    events.push(
      {
        ...resumed,
        type: 'run_start',
        session_id: sessionId,
        surface: 'cli',
        session_kind: 'ordinary',
        resumed: true,
      },
      {
        ...resumed,
        type: 'message',
        turn: 19,
        message_id: `${sessionId}-r2-sys`,
        role: 'system',
        taint: 'clean',
        text: options.resumedUnder,
      },
      { ...resumed, type: 'intervention', turn: 20, kind: 'steer' },
      {
        ...resumed,
        type: 'tool_call',
        turn: 21,
        call_id: `${sessionId}-r2-c0`,
        tool: 'edit_file',
        target: 'src/b.ts',
      },
      { ...resumed, type: 'run_end', stop_cause: 'completed' },
    );
  }
  return {
    listing: {
      sessionId,
      startedAt: at(options.hour ?? 0),
      kind: 'ordinary' as const,
      surface: 'cli',
    },
    transcript: events,
  };
}

const completedWith = (...tools: string[]): ReplayScriptEntry['outcome'] => ({
  state: 'ended',
  stop_cause: 'completed',
  calls: tools.map((tool) => ({ tool, target: 'src/a.ts' })),
});

const options = (maxProbes = 25) => ({ now, maxProbes, workspace: '/work/project' });

describe('probeCorpus', () => {
  it('reads regret where the steer mattered, disappointment where it was redundant, and distress where the arm was inconclusive', async () => {
    const ports = memoryPorts({
      sessions: [
        steered('s-mattered', { hour: 1 }),
        steered('s-redundant', { hour: 2 }),
        steered('s-inconclusive', { hour: 3 }),
      ],
    });
    const replayer = createScriptedReplayer([
      { session_id: 's-mattered', turn: 2, outcome: completedWith('read_file') },
      { session_id: 's-redundant', turn: 2, outcome: completedWith('edit_file') },
      { session_id: 's-inconclusive', turn: 2, outcome: { state: 'failed', reason: 'no model' } },
    ]);
    const run = await probeCorpus(ports, replayer, options());
    expect(run.readout).toEqual({
      driven: 3,
      mattered: 1,
      redundant: 1,
      inconclusive: 1,
      skipped: 0,
      unprobeable: 0,
      over_ceiling: 0,
    });
    const result = await appraiseCorpus(ports, {
      now,
      probe: run.readout,
      resolved: run.resolved,
    });
    expect(result.labels).toMatchObject({ regret: 1, disappointment: 1, distress: 1 });
    expect(result.probe).toEqual(run.readout);
    // Without the probe's findings the same corpus is all distress.
    expect((await appraiseCorpus(ports, { now })).labels).toMatchObject({ distress: 3 });
  });

  it('removes the intervention and the words that carried it from the replayed prefix', async () => {
    const replayer = createScriptedReplayer([]);
    await probeCorpus(memoryPorts({ sessions: [steered('s-1')] }), replayer, options());
    const [request] = replayer.requests;
    expect(request?.kind).toBe('steer');
    expect(request?.purpose).toBe('probe');
    expect(request?.workspace).toBe('/work/project');
    expect(request?.prefix.some((event) => event.type === 'intervention')).toBe(false);
    const texts = request?.prefix.flatMap((event) =>
      event.type === 'message' ? [event.text] : [],
    );
    expect(texts).toEqual(['first prompt', 'tidy the repo']);
  });

  it('replays a steer given after a resume under the system prompt that covered it', async () => {
    const replayer = createScriptedReplayer([]);
    await probeCorpus(
      memoryPorts({
        sessions: [
          steered('s-1', { steers: [], system: 'first prompt', resumedUnder: 'resumed prompt' }),
        ],
      }),
      replayer,
      options(),
    );
    expect(replayer.requests.map((request) => [request.turn, request.systemPrompt])).toEqual([
      [20, 'resumed prompt'],
    ]);
  });

  it('counts draft edits and rejections unprobeable, and skips points with nothing recorded to reach', async () => {
    const ports = memoryPorts({
      sessions: [
        steered('s-stopped', { stop: 'stopped', hour: 1 }),
        steered('s-open', { stop: null, hour: 2 }),
        steered('s-compacted', { compacted: true, hour: 3 }),
        { ...steered('s-drafts', { steers: [], hour: 4 }) },
      ],
      outbox: [
        staged('d-1', 's-drafts'),
        outcome('d-1', 'rejected'),
        staged('d-2', 's-drafts'),
        outcome('d-2', 'sent_edited'),
      ],
    });
    const replayer = createScriptedReplayer([]);
    const run = await probeCorpus(ports, replayer, options());
    // s-stopped: the stop is unprobeable and its steer is skipped (the run did not complete).
    expect(run.readout).toMatchObject({ driven: 0, skipped: 3, unprobeable: 3 });
    expect(replayer.requests).toHaveLength(0);
  });

  it('honours the ceiling: the newest sessions are probed first and the rest counted over it', async () => {
    const ports = memoryPorts({
      sessions: [1, 2, 3, 4].map((n) => steered(`s-${n}`, { hour: n })),
    });
    const replayer = createScriptedReplayer(
      [1, 2, 3, 4].map((n) => ({
        session_id: `s-${n}`,
        turn: 2,
        outcome: completedWith('edit_file'),
      })),
    );
    const run = await probeCorpus(ports, replayer, options(2));
    expect(run.readout).toMatchObject({ driven: 2, redundant: 2, over_ceiling: 2 });
    expect(replayer.requests.map((request) => request.sessionId)).toEqual(['s-4', 's-3']);
    expect([...run.resolved.keys()]).toEqual(['s-4', 's-3']);
  });

  it('grades a replayer that throws as an inconclusive arm', async () => {
    const run = await probeCorpus(
      memoryPorts({ sessions: [steered('s-1')] }),
      {
        name: 'broken',
        replay: () => Promise.reject(new Error('boom')),
      },
      options(),
    );
    expect(run.readout).toMatchObject({ driven: 1, inconclusive: 1 });
    expect(run.resolved.size).toBe(0);
  });

  it('reads frustration from two probed steers of one kind on one goal, and not before the probe', async () => {
    const goal: GoalRef = { kind: 'task', id: 'task-1' };
    const ports = memoryPorts({
      sessions: [steered('s-1', { goal, steers: [{ turn: 2 }, { turn: 4 }] })],
    });
    const replayer = createScriptedReplayer([
      { session_id: 's-1', turn: 2, outcome: completedWith('read_file') },
      { session_id: 's-1', turn: 4, outcome: completedWith('edit_file') },
    ]);
    const run = await probeCorpus(ports, replayer, options());
    expect(run.readout).toMatchObject({ mattered: 1, redundant: 1 });
    const probed = await appraiseCorpus(ports, { now, resolved: run.resolved });
    expect(probed.labels).toMatchObject({ frustration: 1 });
    expect((await appraiseCorpus(ports, { now })).labels).toMatchObject({ distress: 1 });
  });

  it('reads no frustration when only one of two steers was resolved', async () => {
    const goal: GoalRef = { kind: 'task', id: 'task-1' };
    const ports = memoryPorts({
      sessions: [steered('s-1', { goal, steers: [{ turn: 2 }, { turn: 4 }] })],
    });
    const replayer = createScriptedReplayer([
      { session_id: 's-1', turn: 2, outcome: completedWith('read_file') },
    ]);
    const run = await probeCorpus(ports, replayer, options());
    const probed = await appraiseCorpus(ports, { now, resolved: run.resolved });
    expect(probed.labels).toMatchObject({ regret: 1, frustration: 0 });
  });
});
