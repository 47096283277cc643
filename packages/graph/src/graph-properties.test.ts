import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGraph, testEngines } from './__fixtures__/graph-backends.js';
import type { JsonValue } from './content-hash.js';
import { type GraphStore, openGraphStore } from './open-graph-store.js';
import type { FactItem } from './read-graph/items.js';

// One real database per engine for every run; each run works under its own source and names, so
// runs cannot see each other's rows and a failure shrinks to one run's operations.
describe.each(testEngines)('graph properties on $name', (engine) => {
  let graph: TestGraph;
  let store: GraphStore;
  let run = 0;
  // SQLite takes the shared 1,000 cases per property; PostgreSQL runs the same code over the network
  // protocol at about a tenth of the speed, so it takes 100 to keep the suite's time in bounds.
  const cases = engine.name === 'postgres' ? { numRuns: 100 } : {};

  beforeAll(async () => {
    graph = await engine.create();
    store = await openGraphStore({ path: graph.path });
  });

  afterAll(async () => {
    await store.close();
    await graph.remove();
  });

  async function rowCounts(): Promise<Record<string, number>> {
    return graph.row(
      `SELECT ${['episodes', 'facts', 'support', 'corrections', 'denials', 'sources']
        .map((table) => `(SELECT count(*) FROM ${table}) AS ${table}`)
        .join(', ')}`,
    );
  }

  function shuffleKeys(value: JsonValue, seed: number): JsonValue {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, seed + 1));
    const entries = Object.entries(value);
    const rotated = entries.map((_, index) => entries[(index + seed) % entries.length]) as [
      string,
      JsonValue,
    ][];
    return Object.fromEntries(
      rotated.reverse().map(([key, inner]) => [key, shuffleKeys(inner, seed + 1)]),
    );
  }

  /** Text with control characters, quotes, SQL, lone surrogates and non-ASCII mixed in. */
  const hostileText = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
    fc.constantFrom(
      "'); DROP TABLE facts; --",
      '\u0000\u0007\u001b[0m',
      '\uD800 lone',
      '%_\\',
      'ünïcødé 🎉',
    ),
  );

  const metaArbitrary = fc.record({
    taint: fc.record({ private: fc.boolean(), untrusted: fc.boolean() }),
    entities: fc.array(
      fc.record({ name: hostileText, type: fc.option(hostileText, { nil: undefined }) }),
      {
        maxLength: 4,
      },
    ),
    relations: fc.array(
      fc.record({ subject: hostileText, predicate: hostileText, object: hostileText }),
      {
        maxLength: 3,
      },
    ),
    extra: fc.jsonValue({ maxDepth: 3 }),
  });

  async function currentFacts(name: string): Promise<FactItem[]> {
    return [...(await store.search({ subject: name, limit: 100 })).items];
  }

  describe('over a real database', () => {
    it('upserting the same content twice reports unchanged and adds no rows', async () => {
      await fc.assert(
        fc.asyncProperty(hostileText, metaArbitrary, async (body, meta) => {
          run += 1;
          const input = {
            kind: 'episode',
            source: `property:${run}`,
            source_id: `s-${run}`,
            occurred_at: '2026-08-05 12:00:00',
            body,
            meta,
          };
          expect((await store.upsert(input)).outcome).toBe('inserted');
          const before = await rowCounts();
          const again = await store.upsert(structuredClone(input));
          expect(again.outcome).toBe('unchanged');
          expect(await rowCounts()).toEqual(before);
        }),
        cases,
      );
    });

    it('does not care in which order metadata keys arrive', async () => {
      await fc.assert(
        fc.asyncProperty(metaArbitrary, fc.nat(7), async (meta, seed) => {
          run += 1;
          const base = {
            kind: 'episode',
            source: `property:${run}`,
            source_id: `s-${run}`,
            occurred_at: '2026-08-05',
            body: 'same body',
          };
          const first = await store.upsert({ ...base, meta });
          const reordered = shuffleKeys(JSON.parse(JSON.stringify(meta)) as JsonValue, seed);
          const second = await store.upsert({
            ...base,
            meta: reordered as Record<string, unknown>,
          });
          expect(second.outcome).toBe('unchanged');
          expect(second.content_hash).toBe(first.content_hash);
        }),
        cases,
      );
    });

    it('keeps a fact current while any supporting episode remains, and closes it with the last', async () => {
      const step = fc.record({ episode: fc.nat(4), proposes: fc.boolean(), note: fc.nat(3) });
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
          run += 1;
          const name = `[entity ${run}]`;
          const proposing = new Set<number>();
          for (const { episode, proposes, note } of steps) {
            await store.upsert({
              kind: 'episode',
              source: `property:${run}`,
              source_id: `e-${episode}`,
              occurred_at: '2026-08-05',
              body: `note ${note}`,
              meta: { entities: proposes ? [{ name }] : [] },
            });
            if (proposes) proposing.add(episode);
            else proposing.delete(episode);
            const current = await currentFacts(name);
            if (proposing.size === 0) {
              expect(current).toEqual([]);
            } else {
              expect(current).toHaveLength(1);
              expect(current[0]?.status).toBe('staged');
              expect(current[0]?.provenance.support_count).toBe(proposing.size);
            }
          }
          const closed = (
            await store.search({ subject: name, status: 'all', limit: 100 })
          ).items.filter((item) => item.status !== 'staged');
          expect(
            closed.every(
              (item) => item.status === 'retracted' && item.provenance.support_count === 0,
            ),
          ).toBe(true);
        }),
        cases,
      );
    });

    it('never proposes a denied belief again, whatever writes follow', async () => {
      const names = ['Ada', 'Grace', 'Linus'] as const;
      const operation = fc.oneof(
        fc.record({
          kind: fc.constant('upsert' as const),
          episode: fc.nat(2),
          picks: fc.subarray([...names]),
          note: fc.nat(3),
        }),
        fc.record({ kind: fc.constant('deny' as const), name: fc.constantFrom(...names) }),
        fc.record({ kind: fc.constant('reject' as const), name: fc.constantFrom(...names) }),
        fc.record({
          kind: fc.constant('replace' as const),
          from: fc.constantFrom(...names),
          to: fc.constantFrom(...names),
        }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(operation, { minLength: 1, maxLength: 10 }),
          async (operations) => {
            run += 1;
            const label = (name: string) => `${name} (${run})`;
            const denied = new Set<string>();
            const open = (name: string) => currentFacts(label(name));
            for (const op of operations) {
              if (op.kind === 'upsert') {
                const result = await store.upsert({
                  kind: 'episode',
                  source: `property:${run}`,
                  source_id: `e-${op.episode}`,
                  occurred_at: '2026-08-05',
                  body: `note ${op.note}`,
                  meta: {
                    entities: op.picks.map((name) => ({ name: label(name), type: 'person' })),
                  },
                });
                if (result.outcome !== 'unchanged') {
                  expect(result.facts.blocked_by_denial).toBeGreaterThanOrEqual(
                    op.picks.filter((name) => denied.has(name)).length - result.facts.kept,
                  );
                }
              } else if (op.kind === 'deny') {
                const report = await store.correct({
                  source: 'owner',
                  corrections: [
                    { wrong: { subject: label(op.name), predicate: 'is a', object: 'person' } },
                  ],
                });
                if (report.denied === 1) denied.add(op.name);
              } else if (op.kind === 'reject') {
                const staged = (await open(op.name)).find((item) => item.status === 'staged');
                if (staged !== undefined) {
                  await store.decide({ fact_id: staged.id, decision: 'reject' });
                  denied.add(op.name);
                }
              } else {
                await store.correct({
                  source: 'owner',
                  corrections: [
                    {
                      wrong: `${label(op.from)} is a person`,
                      right: { subject: label(op.to), predicate: 'is a', object: 'person' },
                    },
                  ],
                });
              }
              for (const name of denied) expect(await open(name)).toEqual([]);
            }
          },
        ),
        cases,
      );
    });
  });
});
