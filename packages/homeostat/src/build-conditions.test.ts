import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ago, charter, day, hour, now, stores } from './__fixtures__/conditions.js';
import { buildConditions, charterReadings, meetsSetpoint } from './build-conditions.js';
import type { PendingStores } from './pending-commitments.js';
import { couldNotRead, readValue } from './reading.js';

const sensed = {
  now,
  loadAverage1m: readValue(0.42),
  memAvailableKb: readValue(812_344),
  charter: readValue(charter),
};

describe('buildConditions', () => {
  it('records every sensor that was read', () => {
    const snapshot = buildConditions({
      ...sensed,
      pending: stores({
        outbox: [{ store: 'outbox', id: 'd-1', stagedAt: ago(3 * day) }],
        requests: [{ store: 'requests', id: 'r-1', stagedAt: ago(hour), status: 'needs_info' }],
      }),
    });
    expect(snapshot).toMatchObject({
      load_avg_1m: 0.42,
      mem_available_kb: 812_344,
      backlog: {
        outbox: { count: 1, complete: true },
        questions: { count: 0, complete: true },
        requests: { count: 0, complete: true },
      },
      commitments: {
        outbox: {
          complete: true,
          items: [
            {
              owed: true,
              id: 'd-1',
              age_ms: 3 * day,
              patience_ms: 2 * day,
              patience_source: 'setpoint',
              past_patience: true,
              line: { id: 'replies', rank: 1 },
            },
          ],
        },
        requests: { items: [{ owed: false, id: 'r-1', reason: 'needs_info' }] },
      },
    });
    // Excess at 1.5 patiences is 1/3, weighed in full by the top line.
    expect(snapshot.anticipated_guilt).toBeCloseTo(1 / 3);
    expect(snapshot.unread).toBeUndefined();
  });

  it('leaves an unread sensor absent, with its reason, never zero', () => {
    const snapshot = buildConditions({
      ...sensed,
      loadAverage1m: couldNotRead('/proc/loadavg could not be read (ENOENT)'),
      memAvailableKb: couldNotRead('/proc/meminfo has no MemAvailable line'),
      pending: stores({}),
    });
    expect('load_avg_1m' in snapshot).toBe(false);
    expect('mem_available_kb' in snapshot).toBe(false);
    expect(snapshot.unread).toEqual({
      load_avg_1m: '/proc/loadavg could not be read (ENOENT)',
      mem_available_kb: '/proc/meminfo has no MemAvailable line',
    });
  });

  it('treats a sensor that returns a non-number as unread', () => {
    const snapshot = buildConditions({
      ...sensed,
      loadAverage1m: readValue(Number.NaN),
      memAvailableKb: readValue(-1),
      pending: stores({}),
    });
    expect(snapshot.load_avg_1m).toBeUndefined();
    expect(snapshot.mem_available_kb).toBeUndefined();
    expect(Object.keys(snapshot.unread ?? {})).toEqual(['load_avg_1m', 'mem_available_kb']);
  });

  it('still counts the backlog when the charter could not be loaded', () => {
    const snapshot = buildConditions({
      ...sensed,
      charter: couldNotRead('charter.toml: invalid TOML at 3:1'),
      pending: stores({ outbox: [{ store: 'outbox', id: 'd-1', stagedAt: ago(hour) }] }),
    });
    expect(snapshot.backlog?.outbox).toEqual({ count: 1, complete: true });
    expect(snapshot.commitments).toBeUndefined();
    expect(snapshot.charter).toBeUndefined();
    expect(snapshot.anticipated_guilt).toBeUndefined();
    expect(snapshot.unread?.commitments).toContain('invalid TOML');
  });

  it('records nothing owed as an absent anticipated guilt, not zero', () => {
    const snapshot = buildConditions({ ...sensed, pending: stores({}) });
    expect(snapshot.commitments?.outbox).toEqual({ items: [], complete: true });
    expect(snapshot.anticipated_guilt).toBeUndefined();
  });

  it('marks a store read in part, or with a row whose age is unreadable, as incomplete', () => {
    const pending: PendingStores = {
      ...stores({ questions: [{ store: 'questions', id: 'q-1', stagedAt: 'not a time' }] }),
      outbox: {
        state: 'partial',
        records: [],
        skipped: [{ file: 'outbox.jsonl', line: 3, reason: 'torn' }],
      },
    };
    const snapshot = buildConditions({ ...sensed, pending });
    expect(snapshot.backlog?.outbox).toEqual({ count: 0, complete: false });
    expect(snapshot.commitments?.outbox?.complete).toBe(false);
    expect(snapshot.commitments?.questions).toEqual({ items: [], complete: false });
  });

  it('keeps every absent sensor absent, whichever fail', () => {
    const reading = (value: number) =>
      fc.oneof(fc.constant(readValue(value)), fc.constant(couldNotRead('not read')));
    const store = fc.oneof(
      fc.constant({ state: 'unreadable' as const, reason: 'no such file' }),
      fc.constant({ state: 'read' as const, records: [] }),
    );
    fc.assert(
      fc.property(
        reading(0),
        reading(0),
        fc.oneof(fc.constant(readValue(charter)), fc.constant(couldNotRead('gone'))),
        store,
        store,
        store,
        (load, memory, held, outbox, questions, requests) => {
          const snapshot = buildConditions({
            now,
            loadAverage1m: load,
            memAvailableKb: memory,
            charter: held,
            pending: { outbox, questions, requests },
          });
          // A sensor that read 0 records 0; one that failed records nothing and says why.
          expect(snapshot.load_avg_1m).toBe(load.state === 'read' ? 0 : undefined);
          expect(snapshot.mem_available_kb).toBe(memory.state === 'read' ? 0 : undefined);
          if (load.state !== 'read') expect(snapshot.unread?.load_avg_1m).toBe('not read');
          for (const [name, source] of Object.entries({ outbox, questions, requests })) {
            const key = name as 'outbox' | 'questions' | 'requests';
            if (source.state === 'unreadable') {
              expect(snapshot.backlog?.[key]).toBeUndefined();
              expect(snapshot.commitments?.[key]).toBeUndefined();
              expect(snapshot.unread?.[`backlog.${key}`]).toBe('no such file');
            } else {
              expect(snapshot.backlog?.[key]).toEqual({ count: 0, complete: true });
            }
          }
        },
      ),
    );
  });
});

describe('charterReadings', () => {
  const reading = (
    pending: PendingStores,
    withdrawn: ('outbox' | 'questions' | 'requests')[] = [],
  ) => charterReadings(charter, pending, now, withdrawn);

  it('reads only sensored lines, with the patience each sets', () => {
    const readings = reading(stores({}));
    expect(
      readings.map((r) => [r.line, r.rank, r.store, r.setpoint_ms, r.setpoint_source]),
    ).toEqual([
      ['replies', 1, 'outbox', 2 * day, 'setpoint'],
      ['unblock', 2, 'questions', day, 'default'],
    ]);
  });

  it('reads within, past the setpoint, and with no items', () => {
    const [within] = reading(
      stores({ outbox: [{ store: 'outbox', id: 'd-1', stagedAt: ago(day) }] }),
    );
    expect(within).toMatchObject({
      state: 'within',
      level_ms: day,
      items_waiting: 1,
      items_past_setpoint: 0,
    });
    const [past] = reading(
      stores({
        outbox: [
          { store: 'outbox', id: 'd-1', stagedAt: ago(day) },
          { store: 'outbox', id: 'd-2', stagedAt: ago(3 * day) },
        ],
      }),
    );
    expect(past).toMatchObject({
      state: 'past_setpoint',
      level_ms: 3 * day,
      items_waiting: 2,
      items_past_setpoint: 1,
    });
    const [empty] = reading(stores({}));
    expect(empty).toMatchObject({ state: 'no_items', items_waiting: 0, items_past_setpoint: 0 });
    expect(empty?.level_ms).toBeUndefined();
  });

  it('reads partial when cut short within the setpoint, but past when already past', () => {
    const skipped = [{ file: 'outbox.jsonl', line: 1, reason: 'torn' }];
    const cut = (age: number): PendingStores => ({
      ...stores({}),
      outbox: {
        state: 'partial',
        records: [{ store: 'outbox', id: 'd-1', stagedAt: ago(age) }],
        skipped,
      },
    });
    expect(reading(cut(hour))[0]?.state).toBe('partial');
    expect(reading(cut(5 * day))[0]?.state).toBe('past_setpoint');
    expect(
      reading({ ...stores({}), outbox: { state: 'partial', records: [], skipped } })[0]?.state,
    ).toBe('partial');
  });

  it('reads unread when the store could not be read, with no level and no counts', () => {
    const [unread] = reading({ ...stores({}), outbox: { state: 'unreadable', reason: 'EACCES' } });
    expect(unread).toEqual({
      line: 'replies',
      rank: 1,
      sensor: 'outbox_age',
      store: 'outbox',
      setpoint_ms: 2 * day,
      setpoint_source: 'setpoint',
      withdrawn_saturated: false,
      state: 'unread',
    });
  });

  it('does not count a request parked on its requester as waiting', () => {
    const withRequests = [
      ...charter,
      { id: 'front', text: 'Close requests.', sensor: 'request_closure' as const, setpoint: hour },
    ];
    const [, , front] = charterReadings(
      withRequests,
      stores({
        requests: [{ store: 'requests', id: 'r-1', stagedAt: ago(day), status: 'needs_info' }],
      }),
      now,
    );
    expect(front).toMatchObject({ line: 'front', state: 'no_items', items_waiting: 0 });
  });

  it('flags a line whose store was withdrawn from the run as saturated', () => {
    const [replies, unblock] = reading(stores({}), ['outbox']);
    expect(replies?.withdrawn_saturated).toBe(true);
    expect(unblock?.withdrawn_saturated).toBe(false);
  });
});

describe('meetsSetpoint', () => {
  it('holds only for within and no items: a reading not taken never meets the setpoint', () => {
    expect(meetsSetpoint('within')).toBe(true);
    expect(meetsSetpoint('no_items')).toBe(true);
    expect(meetsSetpoint('past_setpoint')).toBe(false);
    expect(meetsSetpoint('partial')).toBe(false);
    expect(meetsSetpoint('unread')).toBe(false);
  });

  it('is never met by a store that could not be read whole, whatever waits in it', () => {
    const row = fc.record({ id: fc.stringMatching(/^d-[0-9]{1,4}$/), age: fc.nat(10 * day) });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), fc.boolean(), (rows, unreadable) => {
        const records = rows.map((r) => ({
          store: 'outbox' as const,
          id: r.id,
          stagedAt: ago(r.age),
        }));
        const pending: PendingStores = {
          ...stores({}),
          outbox: unreadable
            ? { state: 'unreadable', reason: 'gone' }
            : { state: 'partial', records, skipped: [{ file: 'x', line: 1, reason: 'torn' }] },
        };
        const [replies] = charterReadings(charter, pending, now);
        expect(replies === undefined ? true : meetsSetpoint(replies.state)).toBe(false);
      }),
    );
  });
});
