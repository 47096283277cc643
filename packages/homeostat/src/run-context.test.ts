import {
  type ConditionsSnapshot,
  conditionsSnapshotSchema,
  transcriptEventSchema,
} from '@mecha/appraisal-core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ago, charter, day, now, stores } from './__fixtures__/conditions.js';
import { runEnd, runStart } from './__fixtures__/events.js';
import { couldNotRead, readValue } from './reading.js';
import {
  parseRecordedConditions,
  type RecordedConditions,
  recordedConditions,
} from './recorded-conditions.js';
import {
  finishConditions,
  type LiveSensors,
  type ReplayContext,
  type RunContext,
  replayContext,
  sampleConditions,
} from './run-context.js';

function liveSensors(calls: string[]): LiveSensors {
  return {
    now: () => now,
    loadAverage1m: async () => {
      calls.push('load');
      return readValue(1.25);
    },
    memAvailableKb: async () => {
      calls.push('memory');
      return readValue(4_000_000);
    },
    stores: async () => {
      calls.push('stores');
      return stores({ outbox: [{ store: 'outbox', id: 'd-1', stagedAt: ago(3 * day) }] });
    },
    charter: async () => {
      calls.push('charter');
      return readValue(charter);
    },
  };
}

describe('sampleConditions', () => {
  it('samples nothing unless the run context carries live sensors', async () => {
    expect(await sampleConditions({})).toBeUndefined();
    expect(await finishConditions({}, undefined, [{ promptTokens: 10 }])).toBeUndefined();
  });

  it('samples every sensor the context lends', async () => {
    const calls: string[] = [];
    const started = await sampleConditions(
      { sensors: liveSensors(calls) },
      { withdrawnSaturated: ['outbox'] },
    );
    expect(calls.sort()).toEqual(['charter', 'load', 'memory', 'stores']);
    expect(started?.snapshot).toMatchObject({
      load_avg_1m: 1.25,
      mem_available_kb: 4_000_000,
      backlog: { outbox: { count: 1 } },
      withdrawn_saturated: ['outbox'],
      charter: [
        { line: 'replies', state: 'past_setpoint', withdrawn_saturated: true },
        { line: 'unblock' },
      ],
    });
  });

  it('records a missing or failing sensor as unread, never as zero', async () => {
    const started = await sampleConditions({
      sensors: {
        now: () => now,
        loadAverage1m: async () => {
          throw new Error('boom');
        },
        stores: async () => {
          throw new Error('lock timeout');
        },
      },
    });
    const snapshot = started?.snapshot;
    expect(snapshot?.load_avg_1m).toBeUndefined();
    expect(snapshot?.mem_available_kb).toBeUndefined();
    expect(snapshot?.backlog).toBeUndefined();
    expect(snapshot?.unread).toMatchObject({
      load_avg_1m: 'the sensor failed: boom',
      mem_available_kb: 'this harness lent no memory sensor',
      'backlog.outbox': 'the stores could not be read: lock timeout',
      commitments: 'the charter could not be loaded: this harness lent no charter',
    });
  });

  it('finishes with the flow since the start and the peaks over turns', async () => {
    let staged = ['d-1'];
    const sensors: LiveSensors = {
      now: () => now,
      stores: async () =>
        stores({
          outbox: staged.map((id) => ({ store: 'outbox' as const, id, stagedAt: ago(day) })),
        }),
      charter: async () => couldNotRead('not needed here'),
    };
    const started = await sampleConditions({ sensors });
    staged = ['d-2'];
    const ended = await finishConditions({ sensors }, started, [
      { promptTokens: 9000, contextPressure: 0.7 },
    ]);
    expect(ended).toMatchObject({
      backlog_delta: { outbox: { added: ['d-2'], cleared: ['d-1'] } },
      peak_prompt_tokens: 9000,
      peak_context_pressure: 0.7,
    });
  });
});

describe('recordedConditions', () => {
  const start: ConditionsSnapshot = {
    load_avg_1m: 0.5,
    backlog: { outbox: { count: 1, complete: true } },
    charter: [
      {
        line: 'replies',
        rank: 1,
        sensor: 'outbox_age',
        store: 'outbox',
        state: 'within',
        setpoint_ms: 2 * day,
        setpoint_source: 'setpoint',
        level_ms: day,
        items_waiting: 1,
        items_past_setpoint: 0,
        withdrawn_saturated: false,
      },
    ],
    unread: { mem_available_kb: '/proc/meminfo has no MemAvailable line' },
  };
  const end: ConditionsSnapshot = {
    backlog_delta: { outbox: { added: [], cleared: ['d-1'], complete: true } },
    peak_prompt_tokens: 5400,
    unread: { peak_context_pressure: 'no turn recorded its context pressure' },
  };

  it('merges the start and end parts, giving each charter reading its store’s flow', () => {
    // Through JSON and the record schema, as a store would read it back.
    const events = [runStart({ conditions: start }), runEnd({ conditions: end })].map((event) =>
      transcriptEventSchema.parse(JSON.parse(JSON.stringify(event))),
    );
    const recorded = recordedConditions(events);
    expect(recorded).toEqual({
      ...start,
      ...end,
      charter: [
        { ...start.charter?.[0], run_delta: { added: [], cleared: ['d-1'], complete: true } },
      ],
      unread: {
        mem_available_kb: '/proc/meminfo has no MemAvailable line',
        peak_context_pressure: 'no turn recorded its context pressure',
      },
    });
    expect(conditionsSnapshotSchema.safeParse(recorded).success).toBe(true);
    expect(Object.isFrozen(recorded)).toBe(true);
    expect(Object.isFrozen(recorded?.charter?.[0])).toBe(true);
  });

  it('picks the named run and is absent for a run that recorded no conditions', () => {
    const events = [
      runStart({ runId: 'run-1' }),
      runEnd({ runId: 'run-1' }),
      runStart({ runId: 'run-2', conditions: { load_avg_1m: 3 } }),
    ];
    expect(recordedConditions(events)).toBeUndefined();
    expect(recordedConditions(events, 'run-2')).toEqual({ load_avg_1m: 3 });
    expect(recordedConditions([])).toBeUndefined();
  });

  it('parses a stored snapshot and refuses anything that is not one', () => {
    expect(parseRecordedConditions({ load_avg_1m: 2 })).toEqual({ load_avg_1m: 2 });
    expect(parseRecordedConditions({ load_avg_1m: 'high' })).toBeUndefined();
    expect(parseRecordedConditions(null)).toBeUndefined();
  });
});

describe('the replay types', () => {
  it('keep a replay context from ever reaching a sampler', () => {
    expectTypeOf<ReplayContext>().not.toExtend<RunContext>();
    expectTypeOf<Parameters<typeof sampleConditions>[0]>().toEqualTypeOf<RunContext>();
    expectTypeOf<ReplayContext['sensors']>().toEqualTypeOf<undefined>();
  });

  it('make a recorded snapshot something only the readers can produce', () => {
    expectTypeOf<ConditionsSnapshot>().not.toExtend<RecordedConditions>();
    expectTypeOf<RecordedConditions>().toExtend<ConditionsSnapshot>();
    expectTypeOf(replayContext).parameter(0).toEqualTypeOf<RecordedConditions | undefined>();
  });

  it('builds a replay context that holds the record and no sensors', () => {
    const recorded = parseRecordedConditions({ load_avg_1m: 2 });
    const context = replayContext(recorded);
    expect(context).toEqual({ replay: true, recorded: { load_avg_1m: 2 } });
    expect('sensors' in context).toBe(false);
    expect(replayContext(undefined)).toEqual({ replay: true });
  });
});
