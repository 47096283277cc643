import { describe, expect, it } from 'vitest';
import { memoryPorts, partial, unreadable } from '../__fixtures__/memory-ports.js';
import { at, run, session } from '../__fixtures__/records.js';
import type { SituationBriefRecord } from '../schemas/conditions.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { health } from './health.js';

const now = new Date(at(24));

describe('health', () => {
  it('counts per run, not per session: each resumed run is its own run', async () => {
    const ports = memoryPorts({
      sessions: [
        session('s-1', [
          { start: 0, end: 1, stop: 'parked', counters: { goal_drift: 1, null_steps: 0 } },
          {
            start: 2,
            end: 3,
            stop: 'completed',
            resumed: true,
            counters: { goal_drift: 2, boredom_notice: 1 },
          },
        ]),
        session('s-2', [{ stop: 'turn_ceiling', counters: { reopened_steps: 3, tool_errors: 2 } }]),
      ],
    });
    const result = await health(ports, { now, days: 30 });
    expect(result).toMatchObject({
      sessions_read: 2,
      sessions_unreadable: 0,
      runs: 3,
      runs_without_end: 0,
      runs_compacted: 0,
      partial: false,
    });
    expect(result.stop_causes).toMatchObject({ parked: 1, completed: 1, turn_ceiling: 1, loop: 0 });
    expect(result.counters).toEqual({
      goal_drift: { runs_recorded: 2, runs_fired: 2, total: 3 },
      null_steps: { runs_recorded: 1, runs_fired: 0, total: 0 },
      reopened_steps: { runs_recorded: 1, runs_fired: 1, total: 3 },
      boredom_fired: { runs_recorded: 1, runs_fired: 1, total: 1 },
    });
    expect(result.other_counters).toEqual({
      tool_errors: { runs_recorded: 1, runs_fired: 1, total: 2 },
    });
  });

  it('says a counter no run recorded is unknown, not zero', async () => {
    const result = await health(memoryPorts({ sessions: [session('s-1')] }), { now, days: 30 });
    expect(result.counters).toEqual({
      goal_drift: null,
      null_steps: null,
      reopened_steps: null,
      boredom_fired: null,
    });
  });

  it('names what the records cannot say', async () => {
    const ports = memoryPorts({ sessions: [session('s-1', [{ counters: { null_steps: 0 } }])] });
    const result = await health(ports, { now, days: 30 });
    expect(result.unknown.map((entry) => entry.field)).toEqual([
      'goal_drift',
      'reopened_steps',
      'boredom_fired',
    ]);
  });

  it('reports how complete the recorded briefs are, field by field, and runs without one by surface', async () => {
    const fields = Object.fromEntries(
      [
        'goal',
        'attempts',
        'board',
        'commitments',
        'time',
        'seats',
        'runs',
        'slots',
        'voice',
        'budget',
      ].map((field) => [field, { state: 'read' as const }]),
    ) as SituationBriefRecord['fields'];
    const brief: SituationBriefRecord = {
      text: 'Situation brief from the harness…',
      delivered: true,
      fields: {
        ...fields,
        attempts: { state: 'not_a_task' },
        slots: { state: 'unread', reason: 'no /slots' },
      },
    };
    const withBrief = run('s-1', { surface: 'task' }).map((event) =>
      event.type === 'run_start' ? { ...event, brief } : event,
    );
    const ports = memoryPorts({
      sessions: [
        { listing: session('s-1', [{ surface: 'task' }]).listing, transcript: withBrief },
        session('s-2', [{ surface: 'tui' }]),
        session('s-3', [{ surface: 'slack' }, { surface: 'slack', resumed: true }]),
      ],
    });
    const result = await health(ports, { now, days: 30 });
    expect(result.situation_brief?.runs_with_brief).toBe(1);
    expect(result.situation_brief?.delivered).toBe(1);
    expect(result.situation_brief?.fields.goal).toMatchObject({ read: 1, unread: 0 });
    expect(result.situation_brief?.fields.attempts).toMatchObject({ read: 0, not_a_task: 1 });
    expect(result.situation_brief?.fields.slots).toMatchObject({ unread: 1 });
    expect(result.situation_brief?.without_brief).toEqual({ tui: 1, slack: 2 });
  });

  it('counts runs with no recorded end and runs that compacted', async () => {
    const compaction: TranscriptEvent = {
      v: 1,
      type: 'compaction',
      at: at(0),
      run_id: 's-1-r1',
      turn: 4,
    };
    const result = await health(
      memoryPorts({ sessions: [session('s-1', [{ stop: null, extra: [compaction] }])] }),
      { now, days: 30 },
    );
    expect(result).toMatchObject({ runs: 1, runs_without_end: 1, runs_compacted: 1 });
  });

  it('reports unreadable and torn transcripts as partial, and hides development data', async () => {
    const result = await health(
      memoryPorts({
        sessions: [
          { listing: session('s-1').listing, transcript: unreadable() },
          { listing: session('s-2').listing, transcript: partial(run('s-2')) },
          session('s-test', [{ kind: 'test' }]),
          session('s-exp', [{ kind: 'experiment' }]),
          session('s-old', [{ start: -24 * 60 }]),
        ],
      }),
      { now, days: 30 },
    );
    expect(result).toMatchObject({
      sessions_read: 1,
      sessions_unreadable: 1,
      tests_hidden: 1,
      experiments_hidden: 1,
      runs: 1,
      partial: true,
    });
  });

  it('gives null counts when the session store cannot be listed', async () => {
    const result = await health(
      memoryPorts({ sessions: { state: 'unreadable', reason: 'gone' } }),
      { now },
    );
    expect(result).toMatchObject({
      sessions_read: null,
      sessions_unreadable: null,
      runs: null,
      stop_causes: null,
      runs_without_end: null,
      runs_compacted: null,
      tests_hidden: null,
      experiments_hidden: null,
      situation_brief: null,
      partial: true,
    });
  });
});
