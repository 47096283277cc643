import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestGraph, testEngines } from './__fixtures__/graph-backends.js';
import { episode, tempFolder } from './__fixtures__/temp-graph.js';
import { GraphInputError } from './graph-input-error.js';
import { graphLimits } from './limits.js';
import { type Extractor, metadataExtractor } from './metadata-extractor.js';
import { type GraphStore, openGraphStore } from './open-graph-store.js';
import type { CorrectionItem, EpisodeDetail, FactDetail, FactItem } from './read-graph/items.js';
import type { Page } from './read-graph/page.js';

describe.each(testEngines)('the graph store on $name', (engine) => {
  let graph: TestGraph;
  let store: GraphStore;

  beforeEach(async () => {
    graph = await engine.create();
    // These tests are about the store's mechanics, so candidates come from the metadata alone.
    store = await openGraphStore({ path: graph.path, extractor: metadataExtractor });
  });

  afterEach(async () => {
    await store.close();
    await graph.remove();
  });

  async function facts(query: Parameters<GraphStore['search']>[0] = {}): Promise<FactItem[]> {
    return [...(await store.search({ limit: 100, ...query })).items];
  }

  async function fact(
    text: string,
    status: Parameters<GraphStore['search']>[0] = { status: 'all' },
  ): Promise<FactItem> {
    const found = (await facts(status)).filter((item) => item.text === text);
    expect(found).toHaveLength(1);
    return found[0] as FactItem;
  }

  /** A fresh store on another database of the same engine, closed and removed after `work`. */
  async function withOtherStore(
    options: { extractor?: Extractor },
    work: (other: GraphStore, graph: TestGraph) => Promise<void>,
  ): Promise<void> {
    const made = await engine.create();
    const other = await openGraphStore({ path: made.path, ...options });
    try {
      await work(other, made);
    } finally {
      await other.close();
      await made.remove();
    }
  }

  describe('opening a graph', () => {
    it('refuses a database written by a newer schema, saying what to do', async () => {
      await store.close();
      await graph.setSchemaVersion(99);
      await expect(openGraphStore({ path: graph.path })).rejects.toThrow(
        /schema version 99.*upgrade/,
      );
      await graph.setSchemaVersion(2);
      store = await openGraphStore({ path: graph.path, extractor: metadataExtractor });
    });
  });

  describe('upserting an episode', () => {
    it('inserts, then reports unchanged for the same content and updated for new content', async () => {
      const first = await store.upsert(episode());
      expect(first).toMatchObject({ outcome: 'inserted', version: 1, facts: { staged: 2 } });
      const same = await store.upsert(episode());
      expect(same).toMatchObject({
        outcome: 'unchanged',
        episode_id: first.episode_id,
        version: 1,
      });
      expect(same.facts.staged).toBe(0);
      const changed = await store.upsert(episode({ body: 'Priya Nair is at Brown, said twice.' }));
      expect(changed).toMatchObject({
        outcome: 'updated',
        episode_id: first.episode_id,
        version: 2,
      });
      expect(changed.facts).toMatchObject({ kept: 2, staged: 0, retracted: 0 });
      expect(await graph.row('SELECT count(*) AS n FROM episodes')).toEqual({ n: 1 });
      expect(await graph.row('SELECT count(*) AS n FROM facts')).toEqual({ n: 2 });
    });

    it('keeps one fact for a new name that many concurrent upserts propose at once', async () => {
      await store.upsert(episode({ source_id: 'first', meta: {} }));
      // Concurrent reads first, so a pooled store has its connections open and the writes below
      // really run side by side (a cold pool finishes the first before a second connection opens).
      await Promise.all(Array.from({ length: 30 }, () => store.search({ query: 'warm' })));
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          store.upsert(episode({ source_id: `s${k}`, meta: { entities: [{ name: 'Team' }] } })),
        ),
      );
      expect(results.every((result) => result.outcome === 'inserted')).toBe(true);
      expect(
        await graph.row(
          `SELECT count(*) AS facts, (SELECT count(*) FROM support) AS support FROM facts WHERE subject = 'Team'`,
        ),
      ).toEqual({ facts: 1, support: 50 });
    });

    it('retracts staged facts only the old version supported, and keeps shared ones current', async () => {
      await store.upsert(episode());
      await store.upsert(
        episode({
          source_id: 'session-2',
          meta: { entities: [{ name: 'Priya Nair', type: 'person' }] },
        }),
      );
      const updated = await store.upsert(
        episode({
          meta: {
            relations: [{ subject: 'Priya Nair', predicate: 'works on', object: 'the grant' }],
          },
        }),
      );
      expect(updated.facts).toMatchObject({ staged: 1, retracted: 1, kept: 0 });
      expect((await fact('Priya Nair is at Brown')).status).toBe('retracted');
      const person = await fact('Priya Nair is a person');
      expect(person.status).toBe('staged');
      expect(person.provenance.support_count).toBe(1);
      expect(person.provenance.episodes[0]?.source_id).toBe('session-2');
    });

    it('keeps an accepted fact when an update stops proposing it', async () => {
      await store.upsert(episode());
      const accepted = await fact('Priya Nair is at Brown');
      await store.decide({ fact_id: accepted.id, decision: 'accept' });
      await store.upsert(episode({ meta: {} }));
      const after = await fact('Priya Nair is at Brown');
      expect(after.status).toBe('accepted');
      expect(after.provenance.support_count).toBe(0);
    });

    it('stores hostile text exactly and only through parameters', async () => {
      const body = `'); DROP TABLE episodes; --\u0000\u0007\u001b[31m\r\n"quoted" %_\\ ${'é'.repeat(10)}`;
      const result = await store.upsert(
        episode({
          body,
          source_id: "x'; DELETE FROM facts; --",
          meta: {
            note: body,
            entities: [{ name: 'Robert\u0000\u0007"); DROP TABLE facts;--', type: 'per\nson' }],
          },
        }),
      );
      const detail = (await store.get({ episode_id: result.episode_id })) as EpisodeDetail;
      expect(detail.body).toBe(body);
      expect(detail.source_id).toBe("x'; DELETE FROM facts; --");
      expect((detail.meta as { note: string }).note).toBe(body);
      expect((await fact('Robert "); DROP TABLE facts;-- is a per son')).status).toBe('staged');
      expect(
        (
          await store.upsert(
            episode({
              body,
              source_id: "x'; DELETE FROM facts; --",
              meta: {
                note: body,
                entities: [{ name: 'Robert\u0000\u0007"); DROP TABLE facts;--', type: 'per\nson' }],
              },
            }),
          )
        ).outcome,
      ).toBe('unchanged');
    });

    it('replaces lone surrogates so what is stored is what was hashed', async () => {
      const first = await store.upsert(episode({ body: 'broken \uD800 half' }));
      expect(((await store.get({ episode_id: first.episode_id })) as EpisodeDetail).body).toBe(
        'broken \uFFFD half',
      );
      expect((await store.upsert(episode({ body: 'broken \uD800 half' }))).outcome).toBe(
        'unchanged',
      );
      expect((await store.upsert(episode({ body: 'broken \uFFFD half' }))).outcome).toBe(
        'unchanged',
      );
    });

    it('refuses a body or metadata over the cap, naming the cap, and writes nothing', async () => {
      await expect(
        store.upsert(episode({ body: 'x'.repeat(graphLimits.bodyCharacters + 1) })),
      ).rejects.toThrow(/body is over 65536 characters: shorten/);
      await expect(
        store.upsert(episode({ meta: { blob: 'x'.repeat(graphLimits.metaCharacters) } })),
      ).rejects.toThrow(/over the 65536 limit/);
      let deep: unknown = 'bottom';
      for (let level = 0; level < 40; level += 1) deep = [deep];
      await expect(store.upsert(episode({ meta: { deep } }))).rejects.toThrow(GraphInputError);
      await expect(store.upsert(episode({ occurred_at: 'last tuesday' }))).rejects.toThrow(
        /occurred_at must be/,
      );
      expect((await store.episodes()).total).toBe(0);
    });

    it('counts candidates it ignores: empty, too long, repeated or past the cap', async () => {
      const entities = [
        { name: 'Ada' },
        { name: 'ada ' },
        { name: '   ' },
        { name: 'x'.repeat(graphLimits.factPartCharacters + 1) },
        { nope: true },
        ...Array.from({ length: graphLimits.candidatesPerEpisode + 5 }, (_, index) => ({
          name: `P${index}`,
        })),
      ];
      const result = await store.upsert(episode({ meta: { entities } }));
      expect(result.facts.staged).toBe(graphLimits.candidatesPerEpisode);
      // 'ada ' repeats Ada, one name is too long, six come past the cap; the extractor already
      // skipped the blank and the malformed one.
      expect(result.facts.ignored).toBe(1 + 1 + 6);
    });

    it('refuses to reuse the key of a redacted episode', async () => {
      await store.upsert(episode());
      await store.redact({ source: 'agent:mecha' });
      await expect(store.upsert(episode())).rejects.toThrow(/was redacted .* not reused/);
    });

    it('uses the extractor it is given', async () => {
      await store.close();
      const shouting: Extractor = {
        name: 'shouting',
        extract: (item) => [
          { kind: 'entity', subject: item.body.toUpperCase(), predicate: 'is a', object: 'shout' },
        ],
      };
      store = await openGraphStore({ path: graph.path, extractor: shouting });
      await store.upsert(episode({ body: 'hello' }));
      expect((await facts()).map((item) => item.text)).toEqual(['HELLO is a shout']);
    });

    it('acts on meta.corrections only from a clean session, and counts the rest as withheld', async () => {
      await store.upsert(episode());
      const corrections = [
        { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale', about: 'Priya Nair' },
      ];
      const untrusted = await store.upsert(
        episode({
          source_id: 'session-2',
          meta: { taint: { private: false, untrusted: true }, corrections },
        }),
      );
      expect(untrusted).toMatchObject({ corrections: null, corrections_withheld: 1 });
      const unknown = await store.upsert(
        episode({ source_id: 'session-3', meta: { taint: { unknown: true }, corrections } }),
      );
      expect(unknown.corrections_withheld).toBe(1);
      expect((await fact('Priya Nair is at Brown')).status).toBe('staged');
      const clean = await store.upsert(
        episode({
          source_id: 'session-4',
          meta: { taint: { private: true, untrusted: false }, corrections },
        }),
      );
      expect(clean.corrections).toMatchObject({ applied: 1, denied: 0, to_review: 0 });
      expect((await fact('Priya Nair is at Brown')).status).toBe('closed');
      expect((await fact('Priya Nair is at Yale')).status).toBe('staged');
      const again = await store.upsert(
        episode({
          source_id: 'session-4',
          body: 'edited',
          meta: { taint: { private: true, untrusted: false }, corrections },
        }),
      );
      expect(again.corrections).toMatchObject({ applied: 0, duplicate: 1 });
    });
  });

  describe('correcting a belief', () => {
    beforeEach(async () => {
      await store.upsert(episode());
    });

    it('closes the wrong belief in time, stages the replacement and marks its source down', async () => {
      const wrong = await fact('Priya Nair is at Brown');
      const report = await store.correct({
        source: 'agent:mecha',
        source_id: 'session-9',
        occurred_at: '2026-09-01',
        corrections: [
          { wrong: 'priya nair  IS AT brown', right: 'Priya Nair is at Yale', about: 'Priya Nair' },
        ],
      });
      expect(report).toMatchObject({ applied: 1, denied: 0, to_review: 0, duplicate: 0 });
      expect(report.results[0]).toMatchObject({
        wrong_fact_id: wrong.id,
        sources_marked_down: ['agent:mecha'],
      });
      const closed = (await store.get({ fact_id: wrong.id })) as FactDetail;
      expect(closed).toMatchObject({ status: 'closed', valid_to: '2026-09-01', denied: false });
      expect(closed.closed_at).not.toBeNull();
      const replacement = await fact('Priya Nair is at Yale');
      expect(replacement).toMatchObject({
        status: 'staged',
        supersedes: wrong.id,
        origin: 'correction',
        kind: 'relation',
      });
      expect(closed.superseded_by).toEqual([replacement.id]);
      expect(replacement.trust).toBe(0.5);
      expect((await fact('Priya Nair is a person')).trust).toBe(0.5);
      expect(await graph.row('SELECT count(*) AS n FROM facts WHERE id = ?', wrong.id)).toEqual({
        n: 1,
      });
    });

    it('records a denial when right is left out, and nothing proposes the belief again', async () => {
      const report = await store.correct({
        source: 'owner',
        corrections: [{ wrong: { subject: 'Priya Nair', predicate: 'is at', object: 'Brown' } }],
      });
      expect(report).toMatchObject({ applied: 0, denied: 1 });
      expect((await fact('Priya Nair is at Brown')).status).toBe('denied');
      const again = await store.upsert(episode({ source_id: 'session-2' }));
      expect(again.facts).toMatchObject({ blocked_by_denial: 1, staged: 0, supported: 1 });
      expect((await facts()).map((item) => item.text)).toEqual(['Priya Nair is a person']);
      const replaced = await store.correct({
        source: 'owner',
        corrections: [{ wrong: 'Priya Nair is a person', right: 'Priya Nair is at Brown' }],
      });
      expect(replaced.results[0]).toMatchObject({
        outcome: 'applied',
        replacement_blocked: true,
        replacement_fact_id: null,
      });
      expect((await store.search()).total).toBe(0);
    });

    it('sends a correction that matches no belief, or several, to review instead of guessing', async () => {
      await store.upsert(
        episode({
          source_id: 'session-2',
          meta: { relations: [{ subject: 'Priya Nair is', predicate: 'at', object: 'Brown' }] },
        }),
      );
      const report = await store.correct({
        source: 'agent:mecha',
        corrections: [
          { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale' },
          { wrong: 'the deadline is the 14th', right: 'the deadline is the 9th' },
          { wrong: { fact_id: 999 } },
        ],
      });
      expect(report).toMatchObject({ applied: 0, denied: 0, to_review: 3 });
      expect(report.results.map((result) => result.review_reason)).toEqual([
        'ambiguous',
        'no_match',
        'no_match',
      ]);
      expect(report.results[0]?.candidates).toHaveLength(2);
      expect((await facts()).every((item) => item.status === 'staged')).toBe(true);
      const queue = (await store.reviewList({ queue: 'corrections' })) as Page<CorrectionItem>;
      expect(queue.total).toBe(3);
      expect(queue.items[0]).toMatchObject({
        status: 'review',
        review_reason: 'ambiguous',
        right: 'Priya Nair is at Yale',
      });
    });

    it('reports a correction sent twice as a duplicate and acts once', async () => {
      const request = {
        source: 'agent:mecha',
        source_id: 'session-9',
        corrections: [{ wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale' }],
      };
      expect((await store.correct(request)).applied).toBe(1);
      expect(await store.correct(request)).toMatchObject({ applied: 0, duplicate: 1 });
      expect(
        await graph.row(
          'SELECT corrections_against AS n FROM sources WHERE source = ?',
          'agent:mecha',
        ),
      ).toEqual({ n: 1 });
    });

    it('stores free-text replacements that do not extend the belief as statements', async () => {
      await store.correct({
        source: 'agent:mecha',
        corrections: [
          {
            wrong: 'Priya Nair is at Brown',
            right: 'She left academia in June',
            about: 'Priya Nair',
          },
        ],
      });
      expect(await fact('She left academia in June')).toMatchObject({
        kind: 'statement',
        subject: 'Priya Nair',
        status: 'staged',
      });
    });

    it('lets a person resolve a waiting correction by naming the belief, or dismiss one', async () => {
      const report = await store.correct({
        source: 'agent:mecha',
        corrections: [
          { wrong: 'Priya is at Brown', right: 'Priya Nair is at Yale' },
          { wrong: 'something else entirely' },
        ],
      });
      const [first, second] = report.results;
      const wrong = await fact('Priya Nair is at Brown');
      const resolved = await store.resolveCorrection({
        correction_id: first?.correction_id ?? 0,
        fact_id: wrong.id,
      });
      expect(resolved).toMatchObject({ status: 'applied', wrong_fact_id: wrong.id });
      expect((await fact('Priya Nair is at Yale')).status).toBe('staged');
      expect(
        (await store.resolveCorrection({ correction_id: second?.correction_id ?? 0 })).status,
      ).toBe('dismissed');
      expect((await store.reviewList({ queue: 'corrections' })).total).toBe(0);
      await expect(
        store.resolveCorrection({ correction_id: second?.correction_id ?? 0 }),
      ).rejects.toThrow(/not waiting for review/);
    });
  });

  describe('an ungrounded correction', () => {
    it('waits in review with the belief it matched, closes nothing, and a person can apply it', async () => {
      await store.upsert(episode());
      const wrong = await fact('Priya Nair is at Brown');
      const report = await store.correct({
        source: 'agent:mecha',
        source_id: 'session-9',
        corrections: [
          { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale', grounded: false },
        ],
      });
      expect(report).toMatchObject({ applied: 0, to_review: 1 });
      expect(report.results[0]).toMatchObject({
        review_reason: 'ungrounded',
        candidates: [wrong.id],
        sources_marked_down: [],
      });
      expect((await fact('Priya Nair is at Brown')).status).toBe('staged');
      const waiting = (await store.reviewList({ queue: 'corrections' })) as Page<CorrectionItem>;
      expect(waiting.items.map((item) => item.review_reason)).toEqual(['ungrounded']);
      await store.resolveCorrection({
        correction_id: report.results[0]?.correction_id ?? 0,
        fact_id: wrong.id,
      });
      expect((await fact('Priya Nair is at Brown')).status).toBe('closed');
    });
  });

  describe('review decisions', () => {
    it('accepts a staged fact, and rejecting one records a denial', async () => {
      await store.upsert(episode());
      const brown = await fact('Priya Nair is at Brown');
      const person = await fact('Priya Nair is a person');
      expect(await store.decide({ fact_id: person.id, decision: 'accept' })).toMatchObject({
        status: 'accepted',
      });
      expect(await store.decide({ fact_id: brown.id, decision: 'reject' })).toMatchObject({
        status: 'rejected',
        denial_recorded: true,
      });
      await expect(store.decide({ fact_id: brown.id, decision: 'accept' })).rejects.toThrow(
        /only staged facts/,
      );
      await expect(store.decide({ fact_id: 12345, decision: 'accept' })).rejects.toThrow(
        /no fact with id 12345/,
      );
      expect(
        (await store.upsert(episode({ source_id: 'session-2' }))).facts.blocked_by_denial,
      ).toBe(1);
      expect((await store.reviewList()).total).toBe(0);
    });

    it('orders the queue by the salience of the sessions behind each fact', async () => {
      await store.upsert(episode({ source_id: 'calm', meta: { entities: [{ name: 'Calm' }] } }));
      await store.upsert(
        episode({
          source_id: 'bad',
          meta: {
            entities: [{ name: 'Troubled' }],
            goal_errors: [{ channel: 'counter', sign: -0.5, agency: 'owner' }, { sign: 0.3 }],
          },
        }),
      );
      const queue = (await store.reviewList()) as Page<FactItem & { salience: number }>;
      expect(queue.items.map((item) => [item.subject, item.salience])).toEqual([
        ['Troubled', 0.5],
        ['Calm', 0],
      ]);
    });
  });

  describe('reading the graph', () => {
    it('pages with offset and limit, clamps an oversized limit and says so', async () => {
      await store.upsert(
        episode({
          meta: {
            entities: Array.from({ length: 150 }, (_, index) => ({ name: `Person ${index}` })),
          },
        }),
      );
      const first = await store.search({ limit: 1000 });
      expect(first).toMatchObject({
        total: 150,
        limit: 100,
        limit_capped: true,
        next_offset: 100,
        offset: 0,
      });
      expect(first.items).toHaveLength(100);
      const second = await store.search({ limit: 1000, offset: first.next_offset ?? 0 });
      expect(second.items).toHaveLength(50);
      expect(second.next_offset).toBeNull();
      const ids = new Set([...first.items, ...second.items].map((item) => item.id));
      expect(ids.size).toBe(150);
      expect((await store.search({ query: 'person 14' })).total).toBe(11);
      expect((await store.search({ query: '100%' })).total).toBe(0);
    });

    it('returns current facts by default and counts what it suppressed', async () => {
      await store.upsert(episode());
      await store.correct({ source: 'owner', corrections: [{ wrong: 'Priya Nair is at Brown' }] });
      const page = await store.search({ query: 'priya' });
      expect(page.items.map((item) => item.text)).toEqual(['Priya Nair is a person']);
      expect(page.suppressed).toMatchObject({ denied: 1, closed: 0, retracted: 0, rejected: 0 });
      expect((await store.search({ query: 'priya', status: 'all' })).total).toBe(2);
      expect((await store.search({ status: 'denied' })).items.map((item) => item.status)).toEqual([
        'denied',
      ]);
    });

    it('marks every item with provenance, trust and status', async () => {
      const stored = await store.upsert(episode());
      for (const item of await facts()) {
        expect(item.provenance.episodes).toEqual([
          {
            episode_id: stored.episode_id,
            source: 'agent:mecha',
            source_id: 'session-1',
            taint: 'clean',
          },
        ]);
        expect(item.provenance.taint).toEqual({ clean: 1, untrusted: 0, unknown: 0 });
        expect(item).toMatchObject({ trust: 1, status: 'staged' });
      }
      const [listed] = (await store.episodes()).items;
      expect(listed).toMatchObject({
        status: 'current',
        trust: 1,
        taint: 'clean',
        fact_count: 2,
        provenance: {
          source: 'agent:mecha',
          source_id: 'session-1',
          episode_ids: [stored.episode_id],
        },
      });
    });

    it('lists episode bodies as previews and gives the whole body by key', async () => {
      const body = 'y'.repeat(graphLimits.bodyPreviewCharacters + 10);
      await store.upsert(episode({ body, meta: { taint: { unknown: true } } }));
      const [listed] = (await store.episodes({ source: 'agent:mecha' })).items;
      expect(listed?.body).toHaveLength(graphLimits.bodyPreviewCharacters);
      expect(listed?.body_truncated).toBe(true);
      expect(listed?.taint).toBe('unknown');
      const detail = (await store.get({
        source: 'agent:mecha',
        source_id: 'session-1',
      })) as EpisodeDetail;
      expect(detail.body).toBe(body);
      expect(detail.body_truncated).toBe(false);
      expect((await store.episodes({ source: 'someone-else' })).total).toBe(0);
    });

    it('says a preview was cut when the body is characters outside the BMP (counted as code points)', async () => {
      const cut = '😀'.repeat(graphLimits.bodyPreviewCharacters + 1);
      const whole = '😀'.repeat(graphLimits.bodyPreviewCharacters - 1);
      await store.upsert(episode({ source_id: 'cut', body: cut }));
      await store.upsert(episode({ source_id: 'whole', body: whole }));
      const items = (await store.episodes({ source: 'agent:mecha' })).items;
      const bySource = new Map(items.map((item) => [item.source_id, item]));
      expect([...(bySource.get('cut')?.body ?? '')]).toHaveLength(
        graphLimits.bodyPreviewCharacters,
      );
      expect(bySource.get('cut')?.body_truncated).toBe(true);
      expect(bySource.get('whole')?.body).toBe(whole);
      expect(bySource.get('whole')?.body_truncated).toBe(false);
    });

    it('asks for exactly one selector and says where ids come from', async () => {
      await expect(store.get({})).rejects.toThrow(/exactly one of/);
      await expect(store.get({ fact_id: 1, episode_id: 1 })).rejects.toThrow(/exactly one of/);
      await expect(store.get({ source: 'agent:mecha' })).rejects.toThrow(/exactly one of/);
      await expect(store.get({ fact_id: 77 })).rejects.toThrow(
        /no fact with id 77: fact ids come from kg_search/,
      );
      await expect(store.get({ episode_id: 77 })).rejects.toThrow(/no such episode/);
    });
  });

  describe('redacting a source set', () => {
    beforeEach(async () => {
      await store.upsert(episode());
      await store.upsert(
        episode({
          source: 'import:calendar',
          source_id: 'event-1',
          meta: { entities: [{ name: 'Priya Nair', type: 'person' }] },
        }),
      );
      await store.decide({
        fact_id: (await fact('Priya Nair is at Brown')).id,
        decision: 'accept',
      });
      await store.correct({
        source: 'agent:mecha',
        source_id: 'session-1',
        corrections: [{ wrong: 'missing belief' }],
      });
    });

    it('reports without changing anything on a dry run', async () => {
      const report = await store.redact({ source: 'agent:mecha', dry_run: true });
      expect(report).toMatchObject({
        dry_run: true,
        episodes_redacted: 1,
        corrections_redacted: 1,
        facts_closed: 1,
        support_rows_removed: 2,
      });
      expect((await store.episodes()).total).toBe(2);
      expect((await fact('Priya Nair is at Brown')).status).toBe('accepted');
    });

    it('drops its support, closes facts left unsupported, and blanks bodies to tombstones', async () => {
      const report = await store.redact({ source: 'agent:mecha' });
      expect(report).toMatchObject({
        dry_run: false,
        episodes_redacted: 1,
        corrections_redacted: 1,
        facts_closed: 1,
      });
      expect(await fact('Priya Nair is at Brown')).toMatchObject({ status: 'retracted' });
      expect(await fact('Priya Nair is a person')).toMatchObject({
        status: 'staged',
        provenance: { support_count: 1 },
      });
      const listed = await store.episodes();
      expect(listed.total).toBe(1);
      expect(listed.suppressed.redacted).toBe(1);
      const row = await graph.row<{ body: string; meta: string; redacted_at: string | null }>(
        'SELECT body, meta, redacted_at FROM episodes WHERE source = ?',
        'agent:mecha',
      );
      expect(row).toMatchObject({ body: '', meta: '{}' });
      expect(row.redacted_at).not.toBeNull();
      expect(
        await graph.row(`SELECT count(*) AS n FROM corrections WHERE status = 'review'`),
      ).toEqual({ n: 0 });
      expect((await store.redact({ source: 'agent:mecha' })).episodes_redacted).toBe(0);
    });
  });

  describe('a team, each member writing under their own source', () => {
    const member = (name: string, sourceId: string, entities: { name: string }[]) =>
      episode({
        source: `member:${name}`,
        source_id: sourceId,
        source_ref: `${name}@laptop:/home/${name}/.mecha/sessions/${sourceId}.jsonl`,
        meta: { taint: { untrusted: false }, entities },
      });

    it('redacts one member and leaves the others episodes, support and facts as they were', async () => {
      await store.upsert(member('ana', 's1', [{ name: 'Shared Project' }, { name: 'Ana Only' }]));
      await store.upsert(member('ben', 's1', [{ name: 'Shared Project' }, { name: 'Ben Only' }]));
      const report = await store.redact({ source: 'member:ana' });
      expect(report).toMatchObject({ episodes_redacted: 1, facts_closed: 1 });
      expect((await fact('Ana Only is a entity')).status).toBe('retracted');
      const shared = await fact('Shared Project is a entity');
      expect(shared.status).toBe('staged');
      expect(shared.provenance.sources.map((each) => each.source)).toEqual(['member:ben']);
      expect((await fact('Ben Only is a entity')).status).toBe('staged');
      const ben = (await store.get({ source: 'member:ben', source_id: 's1' })) as EpisodeDetail;
      expect(ben).toMatchObject({
        status: 'current',
        source_ref: 'ben@laptop:/home/ben/.mecha/sessions/s1.jsonl',
      });
      // The same source_id under another member is another episode: ana's s1 is gone, ben's is not.
      expect(
        ((await store.get({ source: 'member:ana', source_id: 's1' })) as EpisodeDetail).status,
      ).toBe('redacted');
    });

    it('marks down only the member whose episodes backed a corrected belief', async () => {
      await store.upsert(member('ana', 's1', [{ name: 'Ana Claim' }]));
      await store.upsert(member('ben', 's1', [{ name: 'Ben Claim' }]));
      const report = await store.correct({
        source: 'owner',
        corrections: [{ wrong: 'Ana Claim is a entity' }],
      });
      expect(report.results[0]?.sources_marked_down).toEqual(['member:ana']);
      expect(
        await graph.rows('SELECT source, corrections_against FROM sources ORDER BY source'),
      ).toEqual([
        { source: 'member:ana', corrections_against: 1 },
        { source: 'member:ben', corrections_against: 0 },
        { source: 'owner', corrections_against: 0 },
      ]);
      expect((await fact('Ben Claim is a entity')).trust).toBe(1);
    });
  });

  describe('the default extractor', () => {
    it('stages what the prose states plainly, with the episode as provenance', async () => {
      await withOtherStore({}, async (prose) => {
        const stored = await prose.upsert(
          episode({
            body: 'Omar Haddad was at Initech until spring.',
            meta: { taint: { untrusted: false } },
          }),
        );
        expect(stored.facts.staged).toBe(2);
        const queue = (await prose.reviewList()) as Page<FactItem>;
        expect(queue.items.map((item) => item.text).sort()).toEqual([
          'Omar Haddad is a entity',
          'Omar Haddad is at Initech',
        ]);
        expect(queue.items[0]?.provenance.episode_ids).toEqual([stored.episode_id]);
        expect(queue.items[0]?.provenance.taint).toEqual({ clean: 1, untrusted: 0, unknown: 0 });
      });
    });
  });

  describe('searching by text', () => {
    it('finds substrings through the full-text index, short and wildcard-looking queries too', async () => {
      await withOtherStore({ extractor: metadataExtractor }, async (searched) => {
        await searched.upsert(
          episode({
            meta: {
              relations: [
                { subject: 'Priya Nair', predicate: 'is at', object: 'Brown' },
                { subject: 'Omar', predicate: 'owns', object: '100% of Initech_2' },
              ],
            },
          }),
        );
        const texts = async (query: string) =>
          ((await searched.search({ query })).items as FactItem[]).map((item) => item.text).sort();
        expect(await texts('NAIR IS AT')).toEqual(['Priya Nair is at Brown']);
        expect(await texts('at')).toEqual(['Priya Nair is at Brown']);
        expect(await texts('100%')).toEqual(['Omar owns 100% of Initech_2']);
        expect(await texts('h_2')).toEqual(['Omar owns 100% of Initech_2']);
        expect(await texts('yale')).toEqual([]);
      });
    });

    it('upgrades a version 1 database: the index is built from the facts already there', async () => {
      await store.upsert(episode());
      await store.close();
      await graph.downgradeToVersion1();
      store = await openGraphStore({ path: graph.path, extractor: metadataExtractor });
      expect(
        ((await store.search({ query: 'nair is at' })).items as FactItem[]).map(
          (item) => item.text,
        ),
      ).toEqual(['Priya Nair is at Brown']);
      await store.upsert(
        episode({
          source_id: 'session-2',
          meta: { relations: [{ subject: 'Dana', predicate: 'leads', object: 'Atlas' }] },
        }),
      );
      expect((await store.search({ query: 'leads atl' })).total).toBe(1);
      expect(await graph.schemaVersion()).toBe(2);
    });
  });
});

describe('a SQLite graph file', () => {
  it('creates the folder and a WAL-mode database with a busy timeout', async () => {
    const { folder, remove } = tempFolder();
    const path = join(folder, 'nested', 'deeper', 'graph.db');
    const nested = await openGraphStore({ path });
    await nested.upsert(episode());
    await nested.close();
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
    const again = await openGraphStore({ path });
    expect((await again.episodes()).total).toBe(1);
    await again.close();
    remove();
  });
});
