import fc from 'fast-check';
import * as O from 'fp-ts/lib/Option.js';
import { describe, expect, it } from 'vitest';
import type { Charter } from './charter.js';
import { CharterArgumentError } from './charter-argument-error.js';
import {
  anticipatedGuilt,
  appraiseCommitment,
  appraiseCommitments,
  type CommitmentReading,
  commitmentAge,
  commitmentStores,
  defaultPatience,
  excess,
  type PendingCommitment,
  patienceOf,
  rankWeight,
  sensorForStore,
  unwatchedWeight,
} from './guilt.js';
import { charterArb } from './test-arbitraries.js';

const hour = 3_600_000;

const charter: Charter = [
  { id: 'replies', text: 'Answer people.', sensor: 'outbox_age', setpoint: 4 * hour },
  { id: 'health', text: 'Sleep.' },
  { id: 'requests', text: 'Close what people ask for.', sensor: 'request_closure' },
];

describe('patience', () => {
  it('defaults to 48 h for a draft, 24 h for a question, 72 h for a request', () => {
    expect(defaultPatience).toEqual({
      outbox: 48 * hour,
      questions: 24 * hour,
      requests: 72 * hour,
    });
    for (const store of commitmentStores) {
      expect(patienceOf([], store)).toEqual({
        store,
        patience: defaultPatience[store],
        source: 'default',
      });
    }
  });

  it('is the setpoint of the line whose sensor watches the store', () => {
    expect(patienceOf(charter, 'outbox')).toEqual({
      store: 'outbox',
      patience: 4 * hour,
      source: 'setpoint',
      line: { id: 'replies', rank: 1 },
    });
  });

  it('falls back to the default for a watching line with no setpoint, keeping the line', () => {
    expect(patienceOf(charter, 'requests')).toEqual({
      store: 'requests',
      patience: 72 * hour,
      source: 'default',
      line: { id: 'requests', rank: 3 },
    });
  });

  it('ignores a setpoint on a line with no sensor', () => {
    expect(patienceOf([{ id: 'a', text: 'x', setpoint: hour }], 'questions')).toEqual({
      store: 'questions',
      patience: 24 * hour,
      source: 'default',
    });
  });

  it('maps each store to its sensor', () => {
    expect(sensorForStore).toEqual({
      outbox: 'outbox_age',
      questions: 'question_latency',
      requests: 'request_closure',
    });
  });
});

describe('excess', () => {
  it('is 0 within the patience, ½ at twice it, (age − patience) / age beyond', () => {
    expect(excess(0, hour)).toBe(0);
    expect(excess(hour, hour)).toBe(0);
    expect(excess(2 * hour, hour)).toBe(0.5);
    expect(excess(4 * hour, hour)).toBe(0.75);
    expect(excess(10 * hour, hour)).toBeCloseTo(0.9, 15);
    expect(excess(-5, hour)).toBe(0);
  });

  it('never reaches 1, even where the ratio would round to it', () => {
    expect(excess(Number.MAX_VALUE, Number.MIN_VALUE)).toBeLessThan(1);
    expect(excess(2 ** 60, 1)).toBeLessThan(1);
  });

  it('throws for an age or patience no reading has', () => {
    expect(() => excess(Number.NaN, hour)).toThrow(CharterArgumentError);
    expect(() => excess(Number.POSITIVE_INFINITY, hour)).toThrow(CharterArgumentError);
    expect(() => excess(hour, 0)).toThrow(CharterArgumentError);
    expect(() => excess(hour, -1)).toThrow(CharterArgumentError);
    expect(() => excess(hour, Number.NaN)).toThrow(CharterArgumentError);
  });

  const patienceArb = fc.integer({ min: 1, max: 10 * 365 * 24 * hour });
  const ageArb = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });

  it('stays in [0, 1), is 0 within the patience and exactly ½ at twice it', () => {
    fc.assert(
      fc.property(ageArb, patienceArb, (age, patience) => {
        const value = excess(age, patience);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThan(1);
        if (age <= patience) expect(value).toBe(0);
        else expect(value).toBeGreaterThan(0);
        expect(excess(2 * patience, patience)).toBe(0.5);
      }),
    );
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e300, noNaN: true }),
        fc.double({ min: 1e-300, max: 1e300, noNaN: true }),
        (age, patience) => {
          const value = excess(age, patience);
          expect(value >= 0 && value < 1).toBe(true);
          expect(excess(2 * patience, patience)).toBe(0.5);
        },
      ),
    );
  });

  it('never decreases with age, and strictly increases past the patience', () => {
    fc.assert(
      fc.property(ageArb, ageArb, patienceArb, (a, b, patience) => {
        const [younger, older] = a <= b ? [a, b] : [b, a];
        expect(excess(younger, patience)).toBeLessThanOrEqual(excess(older, patience));
      }),
    );
    // Strictly, wherever floating point can tell the two apart: past the patience, within a
    // million patiences, ages a millionth apart.
    fc.assert(
      fc.property(
        patienceArb,
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e3, noNaN: true }),
        (patience, ratio, step) => {
          const younger = patience * ratio;
          const older = younger * (1 + step);
          fc.pre(younger > patience);
          expect(excess(older, patience)).toBeGreaterThan(excess(younger, patience));
        },
      ),
    );
  });
});

describe('rank weights', () => {
  it('are 1, ½, ⅓, … by position', () => {
    expect([1, 2, 3, 4].map(rankWeight)).toEqual([1, 1 / 2, 1 / 3, 1 / 4]);
  });

  it('throw for a rank that is not a position', () => {
    for (const rank of [0, -1, 1.5, Number.NaN])
      expect(() => rankWeight(rank)).toThrow(CharterArgumentError);
  });

  it('strictly decrease with rank', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (rank) => {
        expect(rankWeight(rank + 1)).toBeLessThan(rankWeight(rank));
        expect(rankWeight(rank)).toBeGreaterThan(0);
        expect(rankWeight(rank)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('put a store no line watches below every line written', () => {
    expect(unwatchedWeight([])).toBe(1);
    expect(unwatchedWeight(charter)).toBe(1 / 4);
    fc.assert(
      fc.property(charterArb, (any) => {
        const unwatched = unwatchedWeight(any);
        any.forEach((_, index) => {
          expect(unwatched).toBeLessThan(rankWeight(index + 1));
        });
        expect(unwatched).toBeGreaterThan(0);
      }),
    );
  });
});

describe('appraiseCommitment', () => {
  it('weighs a draft by the line that watches the outbox', () => {
    expect(appraiseCommitment(charter, { store: 'outbox', id: 'd-1', age: 8 * hour })).toEqual({
      owed: true,
      id: 'd-1',
      store: 'outbox',
      age: 8 * hour,
      patience: 4 * hour,
      patienceSource: 'setpoint',
      pastPatience: true,
      excess: 0.5,
      weight: 1,
      guilt: 0.5,
      line: { id: 'replies', rank: 1 },
    });
  });

  it('weighs a store no line watches below every line, with the default patience', () => {
    expect(appraiseCommitment(charter, { store: 'questions', id: 'q-1', age: 48 * hour })).toEqual({
      owed: true,
      id: 'q-1',
      store: 'questions',
      age: 48 * hour,
      patience: 24 * hour,
      patienceSource: 'default',
      pastPatience: true,
      excess: 0.5,
      weight: 1 / 4,
      guilt: 0.125,
    });
  });

  it('carries no guilt within the patience, though it is owed', () => {
    const reading = appraiseCommitment(charter, {
      store: 'requests',
      id: 'r-1',
      age: 72 * hour,
      status: 'triaged',
    });
    expect(reading).toMatchObject({
      owed: true,
      pastPatience: false,
      excess: 0,
      guilt: 0,
      weight: 1 / 3,
    });
  });

  it('does not count a request parked on the requester as owed at all', () => {
    const reading = appraiseCommitment(charter, {
      store: 'requests',
      id: 'r-2',
      age: 1000 * hour,
      status: 'needs_info',
    });
    expect(reading).toEqual({
      owed: false,
      id: 'r-2',
      store: 'requests',
      age: 1000 * hour,
      reason: 'needs_info',
    });
    expect('guilt' in reading).toBe(false);
  });

  it('throws for an age that could not be read, rather than reading it as small', () => {
    for (const age of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(() => appraiseCommitment(charter, { store: 'outbox', id: 'd', age })).toThrow(
        CharterArgumentError,
      );
    }
  });

  it('keeps guilt = excess × weight in [0, 1)', () => {
    const pendingArb: fc.Arbitrary<PendingCommitment> = fc.oneof(
      fc.record({
        store: fc.constantFrom('outbox' as const, 'questions' as const),
        id: fc.string(),
        age: fc.integer({ min: 0, max: 1000 * 24 * hour }),
      }),
      fc.record({
        store: fc.constant('requests' as const),
        id: fc.string(),
        age: fc.integer({ min: 0, max: 1000 * 24 * hour }),
        status: fc.constantFrom('needs_info', 'triaged', 'open'),
      }),
    );
    fc.assert(
      fc.property(charterArb, pendingArb, (any, pending) => {
        const reading = appraiseCommitment(any, pending);
        if (!reading.owed) {
          expect(pending.store === 'requests' && pending.status === 'needs_info').toBe(true);
          return;
        }
        expect(reading.guilt).toBe(reading.excess * reading.weight);
        expect(reading.guilt >= 0 && reading.guilt < 1).toBe(true);
        expect(reading.pastPatience).toBe(reading.excess > 0);
        if (reading.line) {
          expect(any[reading.line.rank - 1]?.sensor).toBe(sensorForStore[pending.store]);
          expect(reading.weight).toBe(rankWeight(reading.line.rank));
        } else {
          expect(any.some((line) => line.sensor === sensorForStore[pending.store])).toBe(false);
          expect(reading.weight).toBe(unwatchedWeight(any));
        }
      }),
    );
  });
});

describe('anticipatedGuilt', () => {
  it('is absent, not 0, when nothing is pending', () => {
    expect(anticipatedGuilt([])).toEqual(O.none);
  });

  it('is absent when the only pending rows are requests parked on their requesters', () => {
    const readings = appraiseCommitments(charter, [
      { store: 'requests', id: 'r-1', age: 500 * hour, status: 'needs_info' },
    ]);
    expect(anticipatedGuilt(readings)).toEqual(O.none);
  });

  it('is 0, and present, when commitments wait within their patience', () => {
    const readings = appraiseCommitments(charter, [{ store: 'outbox', id: 'd-1', age: hour }]);
    expect(anticipatedGuilt(readings)).toEqual(O.some(0));
  });

  it('is the largest guilt among the commitments', () => {
    const readings = appraiseCommitments(charter, [
      { store: 'outbox', id: 'd-1', age: 8 * hour },
      { store: 'questions', id: 'q-1', age: 96 * hour },
      { store: 'requests', id: 'r-1', age: 5000 * hour, status: 'needs_info' },
    ]);
    expect(readings.map((reading) => reading.owed)).toEqual([true, true, false]);
    expect(anticipatedGuilt(readings)).toEqual(O.some(0.5));
  });

  it('is the maximum over owed readings, and absent exactly when there are none', () => {
    const readingArb: fc.Arbitrary<CommitmentReading> = fc.oneof(
      fc
        .record({
          guilt: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
          id: fc.string(),
        })
        .map(
          ({ guilt, id }): CommitmentReading => ({
            owed: true,
            id,
            store: 'outbox',
            age: 1,
            patience: 1,
            patienceSource: 'default',
            pastPatience: guilt > 0,
            excess: guilt,
            weight: 1,
            guilt,
          }),
        ),
      fc.string().map(
        (id): CommitmentReading => ({
          owed: false,
          id,
          store: 'requests',
          age: 1,
          reason: 'needs_info',
        }),
      ),
    );
    fc.assert(
      fc.property(fc.array(readingArb), (readings) => {
        const owed = readings.flatMap((reading) => (reading.owed ? [reading.guilt] : []));
        const result = anticipatedGuilt(readings);
        if (owed.length === 0) expect(result).toEqual(O.none);
        else {
          expect(result).toEqual(O.some(Math.max(...owed)));
          for (const guilt of owed)
            expect(guilt).toBeLessThanOrEqual(O.isSome(result) ? result.value : -1);
        }
      }),
    );
  });
});

describe('commitmentAge', () => {
  it('is now minus when it was staged, from numbers or dates, never negative', () => {
    expect(commitmentAge(1_000, 5_000)).toBe(4_000);
    expect(commitmentAge(new Date('2026-01-01T00:00:00Z'), new Date('2026-01-03T00:00:00Z'))).toBe(
      48 * hour,
    );
    expect(commitmentAge(9_000, 5_000)).toBe(0);
  });

  it('throws for a time that could not be read', () => {
    expect(() => commitmentAge(Number.NaN, 1)).toThrow(CharterArgumentError);
    expect(() => commitmentAge(new Date('not a date'), 1)).toThrow(CharterArgumentError);
    expect(() => commitmentAge(1, Number.NaN)).toThrow(CharterArgumentError);
  });
});

// ---- rules pinned from the mutation run (docs/testing.md) --------------------------------

/** The argument and message a call throws with, or undefined when it does not throw. */
function thrown(call: () => unknown): { argument: string; message: string } | undefined {
  try {
    call();
  } catch (error) {
    if (!CharterArgumentError.isInstance(error)) throw error;
    return { argument: error.argument, message: error.message };
  }
  return undefined;
}

describe('guilt: bad input gets an error that names the argument and says what was wrong', () => {
  it.each([
    [
      'excess, an unreadable age',
      () => excess(Number.NaN, hour),
      'age',
      'an age must be a finite number, not NaN',
    ],
    [
      'excess, a zero patience',
      () => excess(hour, 0),
      'patience',
      'a patience must be a finite positive number, not 0',
    ],
    [
      'rankWeight, rank 0',
      () => rankWeight(0),
      'rank',
      'a rank is a whole number from 1 (the top line), not 0',
    ],
    [
      'commitmentAge, an unreadable staging time',
      () => commitmentAge(Number.NaN, 1),
      'stagedAt',
      'a staged-at time must be finite, not NaN',
    ],
    [
      'commitmentAge, an unreadable now',
      () => commitmentAge(1, Number.NaN),
      'now',
      'the time now must be finite, not NaN',
    ],
    [
      'appraiseCommitment, a negative age',
      () => appraiseCommitment(charter, { store: 'outbox', id: 'd-1', age: -1 }),
      'age',
      'the age of outbox row "d-1" must be a finite number of milliseconds ≥ 0, not -1',
    ],
    [
      'appraiseCommitment, a store mecha keeps no commitments in',
      () =>
        appraiseCommitment(charter, {
          store: 'inbox',
          id: 'm-1',
          age: hour,
        } as unknown as PendingCommitment),
      'store',
      '"inbox" is not a commitment store',
    ],
  ])('%s', (_, call, argument, message) => {
    expect(thrown(call)).toEqual({ argument, message });
  });

  it('reads a commitment staged this very moment (age 0) as owed and within its patience', () => {
    const reading = appraiseCommitment(charter, { store: 'outbox', id: 'd-1', age: 0 });
    expect(reading).toMatchObject({ owed: true, excess: 0, guilt: 0, pastPatience: false });
  });
});

describe('guilt: a store no charter line watches', () => {
  it('weighs a commitment there one rank below the last line, with no line and the default patience', () => {
    // `charter` has three lines and none watches questions: the weight is 1 / (3 + 1).
    const reading = appraiseCommitment(charter, {
      store: 'questions',
      id: 'q-1',
      age: 48 * hour,
    });
    // Strictly: no `line` key at all, not one holding undefined.
    expect(reading).toStrictEqual({
      owed: true,
      id: 'q-1',
      store: 'questions',
      age: 48 * hour,
      patience: 24 * hour,
      patienceSource: 'default',
      pastPatience: true,
      excess: 0.5,
      weight: 0.25,
      guilt: 0.125,
    });
  });
});
