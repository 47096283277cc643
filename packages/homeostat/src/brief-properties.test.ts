import type { CommitmentRecord, ConditionsSnapshot } from '@mecha/appraisal-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knownInput } from './__fixtures__/brief.js';
import { charter, now, stores } from './__fixtures__/conditions.js';
import { runEnd, runStart } from './__fixtures__/events.js';
import { buildConditions } from './build-conditions.js';
import { commitmentsLine } from './commitments-line.js';
import { couldNotRead, readValue } from './reading.js';
import { recordedConditions } from './recorded-conditions.js';
import { renderBrief, type SituationInput } from './situation-brief.js';

const lineId = fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,12}$/);
const reason = fc.string({ maxLength: 60 });

const owed: fc.Arbitrary<CommitmentRecord> = fc
  .record({
    owed: fc.constant(true as const),
    id: fc.stringMatching(/^d-[0-9]{1,6}$/),
    age_ms: fc.nat(),
    patience_ms: fc.integer({ min: 1, max: 10 ** 10 }),
    patience_source: fc.constantFrom('setpoint' as const, 'default' as const),
    past_patience: fc.boolean(),
    guilt: fc.double({ min: 0, max: 0.999, noNaN: true }),
    line: fc.option(fc.record({ id: lineId, rank: fc.integer({ min: 1, max: 99 }) }), {
      nil: undefined,
    }),
  })
  .map(({ line, ...rest }) => (line === undefined ? rest : { ...rest, line }));

const notOwed: fc.Arbitrary<CommitmentRecord> = fc.record({
  owed: fc.constant(false as const),
  id: fc.stringMatching(/^r-[0-9]{1,6}$/),
  age_ms: fc.nat(),
  reason: fc.constant('needs_info' as const),
});

const store = fc.option(
  fc.record({
    items: fc.array(fc.oneof(owed, notOwed), { maxLength: 40 }),
    complete: fc.boolean(),
  }),
  { nil: undefined },
);
const backlogStore = fc.option(fc.record({ count: fc.nat(10_000), complete: fc.boolean() }), {
  nil: undefined,
});

/** Drops the keys whose value is undefined, as a recorded snapshot would. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const snapshot: fc.Arbitrary<ConditionsSnapshot> = fc
  .record({
    commitments: fc.option(
      fc.record({ outbox: store, questions: store, requests: store }).map(defined),
      { nil: undefined },
    ),
    backlog: fc.option(
      fc
        .record({ outbox: backlogStore, questions: backlogStore, requests: backlogStore })
        .map(defined),
      { nil: undefined },
    ),
    withdrawn_saturated: fc.option(fc.subarray(['outbox', 'questions', 'requests'] as const), {
      nil: undefined,
    }),
    unread: fc.option(
      fc.dictionary(
        fc.constantFrom(
          'commitments',
          'commitments.outbox',
          'backlog.requests',
          'commitments.questions',
        ),
        reason,
      ),
      { nil: undefined },
    ),
  })
  .map(defined);

describe('the commitments line, as a property', () => {
  it('holds no digit of its own: the only digits are inside a charter line id', () => {
    fc.assert(
      fc.property(snapshot, (conditions) => {
        const { line } = commitmentsLine(conditions);
        const outsideIds = line.replace(/`[^`]*`/g, '');
        expect(outsideIds).not.toMatch(/\p{Nd}/u);
      }),
    );
  });

  it('never says a store holds nothing when it could not be read', () => {
    fc.assert(
      fc.property(snapshot, (conditions) => {
        const { line } = commitmentsLine(conditions);
        if (
          conditions.commitments?.outbox === undefined &&
          conditions.backlog?.outbox === undefined
        ) {
          expect(line).toContain('the outbox could not be read');
          expect(line).not.toContain('no drafts');
        }
      }),
    );
  });
});

describe('the score-like lines, as a property', () => {
  it('print time, the model server and voice as words, never as numbers', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Monday', 'Friday', 'Sunday'),
        fc.constantFrom('early morning', 'morning', 'afternoon', 'evening', 'night' as const),
        fc.constantFrom('inside', 'outside', 'none_recorded' as const),
        fc.integer({ min: 1, max: 64 }),
        fc.nat(64),
        fc.boolean(),
        (weekday, partOfDay, quiet, total, busy, inCall) => {
          const text = renderBrief({
            ...knownInput,
            time: readValue({ weekday, partOfDay, quietHours: readValue(quiet) }),
            slots: readValue({ kind: 'local', total, busy: Math.min(busy, total) }),
            voice: readValue({ inCall }),
          }).text;
          for (const label of ['- Time:', '- Model server:', '- Voice:']) {
            const line = text.split('\n').find((each) => each.startsWith(label));
            expect(line).toBeDefined();
            expect(line).not.toMatch(/\p{Nd}/u);
          }
        },
      ),
    );
  });
});

describe('an unknown field, as a property', () => {
  const fields = [
    'goal',
    'attempts',
    'board',
    'time',
    'seats',
    'runs',
    'slots',
    'voice',
    'budget',
  ] as const;

  it('always says it could not be read, with its reason, and records it as unread', () => {
    fc.assert(
      fc.property(fc.subarray([...fields], { minLength: 1 }), (unknown) => {
        const down = (field: (typeof fields)[number]) =>
          unknown.includes(field) ? couldNotRead(`${field} sensor is down`) : undefined;
        const input: SituationInput = {
          ...knownInput,
          goal: down('goal') ?? knownInput.goal,
          attempts: down('attempts') ?? knownInput.attempts,
          board: down('board') ?? knownInput.board,
          time: down('time') ?? knownInput.time,
          seats: down('seats') ?? knownInput.seats,
          runs: down('runs') ?? knownInput.runs,
          slots: down('slots') ?? knownInput.slots,
          voice: down('voice') ?? knownInput.voice,
          budget: down('budget') ?? knownInput.budget,
        };
        const brief = renderBrief(input);
        for (const field of unknown) {
          expect(brief.fields[field]).toEqual({
            state: 'unread',
            reason: `${field} sensor is down`,
          });
          const line = brief.text
            .split('\n')
            .find((each) => each.includes(`${field} sensor is down`));
          expect(line).toMatch(/: could not be read \(.+ sensor is down\)\.$/);
        }
      }),
    );
  });
});

describe('a missing sensor, from snapshot to words', () => {
  it('stays absent through building, recording and rendering — never a zero, never "none"', () => {
    const built = buildConditions({
      now,
      loadAverage1m: couldNotRead('/proc/loadavg could not be read (ENOENT)'),
      memAvailableKb: couldNotRead('/proc/meminfo has no MemAvailable line'),
      charter: readValue(charter),
      pending: { ...stores({}), outbox: { state: 'unreadable', reason: 'outbox.jsonl: EACCES' } },
    });
    const recorded = recordedConditions([runStart({ conditions: built }), runEnd()]);
    for (const conditions of [built, recorded]) {
      expect(conditions?.load_avg_1m).toBeUndefined();
      expect(conditions?.mem_available_kb).toBeUndefined();
      expect(conditions?.backlog?.outbox).toBeUndefined();
      expect(conditions?.commitments?.outbox).toBeUndefined();
      expect(conditions?.charter?.[0]).toMatchObject({ line: 'replies', state: 'unread' });
      expect(conditions?.charter?.[0]?.items_waiting).toBeUndefined();
      const line = commitmentsLine(conditions).line;
      expect(line).toContain('the outbox could not be read (outbox.jsonl: EACCES)');
      expect(line).not.toMatch(/no drafts/);
    }
  });
});
