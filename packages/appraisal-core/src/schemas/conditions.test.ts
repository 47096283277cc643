import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  charterReadingStateSchema,
  conditionsSnapshotSchema,
  situationBriefSchema,
} from './conditions.js';
import { runEndEventSchema, runStartEventSchema, transcriptEventSchema } from './transcript.js';

const at = '2026-09-25T09:00:00Z';

const full = {
  load_avg_1m: 1.5,
  mem_available_kb: 812_344,
  backlog: { outbox: { count: 1, complete: true }, questions: { count: 0, complete: true } },
  backlog_delta: { outbox: { added: ['d-2'], cleared: ['d-1'], complete: true } },
  peak_prompt_tokens: 41_200,
  peak_context_pressure: 0.31,
  commitments: {
    outbox: {
      complete: true,
      items: [
        {
          owed: true,
          id: 'd-7f3e',
          age_ms: 100_000_000,
          patience_ms: 172_800_000,
          patience_source: 'setpoint',
          past_patience: false,
          guilt: 0,
          line: { id: 'replies', rank: 1 },
        },
      ],
    },
    requests: {
      complete: false,
      items: [{ owed: false, id: 'r-1', age_ms: 5, reason: 'needs_info' }],
    },
  },
  anticipated_guilt: 0,
  charter: [
    {
      line: 'replies',
      rank: 1,
      sensor: 'outbox_age',
      store: 'outbox',
      state: 'within',
      setpoint_ms: 172_800_000,
      setpoint_source: 'setpoint',
      level_ms: 100_000_000,
      items_waiting: 1,
      items_past_setpoint: 0,
      withdrawn_saturated: false,
    },
  ],
  withdrawn_saturated: ['questions'],
  unread: { 'commitments.questions': 'the question store could not be read' },
};

describe('conditionsSnapshotSchema', () => {
  it('accepts a snapshot with every field absent: each sensor may be unread', () => {
    expect(conditionsSnapshotSchema.parse({})).toEqual({});
  });

  it('keeps every field of a full snapshot', () => {
    expect(conditionsSnapshotSchema.parse(full)).toEqual(full);
  });

  it('refuses a negative load, a guilt of 1 and prose where an id belongs', () => {
    expect(conditionsSnapshotSchema.safeParse({ load_avg_1m: -1 }).success).toBe(false);
    const item = full.commitments.outbox.items[0];
    const withGuilt = (guilt: number) => ({
      commitments: { outbox: { complete: true, items: [{ ...item, guilt }] } },
    });
    expect(conditionsSnapshotSchema.safeParse(withGuilt(0.99)).success).toBe(true);
    expect(conditionsSnapshotSchema.safeParse(withGuilt(1)).success).toBe(false);
    expect(
      conditionsSnapshotSchema.safeParse({
        commitments: {
          outbox: { complete: true, items: [{ ...item, id: 'your colleague is counting on you' }] },
        },
      }).success,
    ).toBe(false);
  });

  it('takes charter line ids by the charter rule, not the harness id rule', () => {
    const reading = full.charter[0];
    const withLine = (line: string) => ({ charter: [{ ...reading, line }] });
    expect(conditionsSnapshotSchema.safeParse(withLine('réponses')).success).toBe(true);
    expect(conditionsSnapshotSchema.safeParse(withLine('回复')).success).toBe(true);
    expect(conditionsSnapshotSchema.safeParse(withLine('Replies')).success).toBe(false);
    expect(conditionsSnapshotSchema.safeParse(withLine('my line')).success).toBe(false);
  });

  it('names exactly five reading states', () => {
    expect(charterReadingStateSchema.options).toEqual([
      'within',
      'past_setpoint',
      'no_items',
      'partial',
      'unread',
    ]);
  });

  it('rides on run_start and run_end, and older events without it still load', () => {
    const start = {
      v: 1,
      at,
      run_id: 'run-1',
      type: 'run_start',
      session_id: 's-1',
      surface: 'task',
    };
    expect(runStartEventSchema.parse(start).conditions).toBeUndefined();
    expect(runStartEventSchema.parse({ ...start, conditions: full }).conditions).toEqual(full);
    const end = { v: 1, at, run_id: 'run-1', type: 'run_end', stop_cause: 'completed' };
    expect(
      runEndEventSchema.parse({ ...end, conditions: { peak_prompt_tokens: 9 } }),
    ).toMatchObject({ conditions: { peak_prompt_tokens: 9 } });
    expect(
      transcriptEventSchema.safeParse({ ...start, conditions: { load_avg_1m: 'high' } }).success,
    ).toBe(false);
  });

  it('converts to JSON Schema for the emitted record schemas', () => {
    expect(() =>
      z.toJSONSchema(conditionsSnapshotSchema, { io: 'input', unrepresentable: 'throw' }),
    ).not.toThrow();
    expect(() =>
      z.toJSONSchema(situationBriefSchema, { io: 'input', unrepresentable: 'throw' }),
    ).not.toThrow();
  });
});

describe('situationBriefSchema', () => {
  const field = { state: 'read' };
  const fields = {
    goal: { state: 'no_anchor' },
    attempts: { state: 'not_a_task' },
    board: { state: 'partial', reason: 'the board response was cut short' },
    commitments: field,
    time: field,
    seats: field,
    runs: field,
    slots: { state: 'not_local' },
    voice: { state: 'unread', reason: 'the voice facade did not answer' },
    budget: field,
  };

  it('records the words and the read state of every field', () => {
    const brief = { text: 'Situation brief …', delivered: false, fields };
    expect(situationBriefSchema.parse(brief)).toEqual(brief);
  });

  it('refuses a brief that leaves a field out', () => {
    const { voice: _voice, ...rest } = fields;
    expect(situationBriefSchema.safeParse({ text: 'x', fields: rest }).success).toBe(false);
  });
});
