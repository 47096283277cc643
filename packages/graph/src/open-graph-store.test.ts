import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { episode, tempDatabase, tempFolder } from './__fixtures__/temp-graph.js';
import { GraphInputError } from './graph-input-error.js';
import { graphLimits } from './limits.js';
import { type Extractor, metadataExtractor } from './metadata-extractor.js';
import { type GraphStore, openGraphStore } from './open-graph-store.js';
import type { CorrectionItem, EpisodeDetail, FactDetail, FactItem } from './read-graph/items.js';
import type { Page } from './read-graph/page.js';

let database: ReturnType<typeof tempDatabase>;
let store: GraphStore;

beforeEach(() => {
  database = tempDatabase();
  // These tests are about the store's mechanics, so candidates come from the metadata alone.
  store = openGraphStore({ path: database.path, extractor: metadataExtractor });
});

afterEach(() => {
  store.close();
  database.remove();
});

function facts(query: Parameters<GraphStore['search']>[0] = {}): FactItem[] {
  return [...store.search({ limit: 100, ...query }).items];
}

function fact(
  text: string,
  status: Parameters<GraphStore['search']>[0] = { status: 'all' },
): FactItem {
  const found = facts(status).filter((item) => item.text === text);
  expect(found).toHaveLength(1);
  return found[0] as FactItem;
}

function raw(): Database.Database {
  return new Database(database.path, { readonly: true });
}

describe('opening a graph file', () => {
  it('creates the folder and a WAL-mode database with a busy timeout', () => {
    const { folder, remove } = tempFolder();
    const path = join(folder, 'nested', 'deeper', 'graph.db');
    const nested = openGraphStore({ path });
    nested.upsert(episode());
    nested.close();
    const db = new Database(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
    const again = openGraphStore({ path });
    expect(again.episodes().total).toBe(1);
    again.close();
    remove();
  });

  it('refuses a file written by a newer schema, saying what to do', () => {
    store.close();
    const db = new Database(database.path);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openGraphStore({ path: database.path })).toThrow(/schema version 99.*upgrade/);
    const reset = new Database(database.path);
    reset.pragma('user_version = 2');
    reset.close();
    store = openGraphStore({ path: database.path, extractor: metadataExtractor });
  });
});

describe('upserting an episode', () => {
  it('inserts, then reports unchanged for the same content and updated for new content', () => {
    const first = store.upsert(episode());
    expect(first).toMatchObject({ outcome: 'inserted', version: 1, facts: { staged: 2 } });
    const same = store.upsert(episode());
    expect(same).toMatchObject({ outcome: 'unchanged', episode_id: first.episode_id, version: 1 });
    expect(same.facts.staged).toBe(0);
    const changed = store.upsert(episode({ body: 'Priya Nair is at Brown, said twice.' }));
    expect(changed).toMatchObject({ outcome: 'updated', episode_id: first.episode_id, version: 2 });
    expect(changed.facts).toMatchObject({ kept: 2, staged: 0, retracted: 0 });
    const db = raw();
    expect(db.prepare('SELECT count(*) AS n FROM episodes').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT count(*) AS n FROM facts').get()).toEqual({ n: 2 });
    db.close();
  });

  it('retracts staged facts only the old version supported, and keeps shared ones current', () => {
    store.upsert(episode());
    store.upsert(
      episode({
        source_id: 'session-2',
        meta: { entities: [{ name: 'Priya Nair', type: 'person' }] },
      }),
    );
    const updated = store.upsert(
      episode({
        meta: {
          relations: [{ subject: 'Priya Nair', predicate: 'works on', object: 'the grant' }],
        },
      }),
    );
    expect(updated.facts).toMatchObject({ staged: 1, retracted: 1, kept: 0 });
    expect(fact('Priya Nair is at Brown').status).toBe('retracted');
    const person = fact('Priya Nair is a person');
    expect(person.status).toBe('staged');
    expect(person.provenance.support_count).toBe(1);
    expect(person.provenance.episodes[0]?.source_id).toBe('session-2');
  });

  it('keeps an accepted fact when an update stops proposing it', () => {
    store.upsert(episode());
    const accepted = fact('Priya Nair is at Brown');
    store.decide({ fact_id: accepted.id, decision: 'accept' });
    store.upsert(episode({ meta: {} }));
    const after = fact('Priya Nair is at Brown');
    expect(after.status).toBe('accepted');
    expect(after.provenance.support_count).toBe(0);
  });

  it('stores hostile text exactly and only through parameters', () => {
    const body = `'); DROP TABLE episodes; --\u0000\u0007\u001b[31m\r\n"quoted" %_\\ ${'é'.repeat(10)}`;
    const result = store.upsert(
      episode({
        body,
        source_id: "x'; DELETE FROM facts; --",
        meta: {
          note: body,
          entities: [{ name: 'Robert\u0000\u0007"); DROP TABLE facts;--', type: 'per\nson' }],
        },
      }),
    );
    const detail = store.get({ episode_id: result.episode_id }) as EpisodeDetail;
    expect(detail.body).toBe(body);
    expect(detail.source_id).toBe("x'; DELETE FROM facts; --");
    expect((detail.meta as { note: string }).note).toBe(body);
    expect(fact('Robert "); DROP TABLE facts;-- is a per son').status).toBe('staged');
    expect(
      store.upsert(
        episode({
          body,
          source_id: "x'; DELETE FROM facts; --",
          meta: {
            note: body,
            entities: [{ name: 'Robert\u0000\u0007"); DROP TABLE facts;--', type: 'per\nson' }],
          },
        }),
      ).outcome,
    ).toBe('unchanged');
  });

  it('replaces lone surrogates so what is stored is what was hashed', () => {
    const first = store.upsert(episode({ body: 'broken \uD800 half' }));
    expect((store.get({ episode_id: first.episode_id }) as EpisodeDetail).body).toBe(
      'broken \uFFFD half',
    );
    expect(store.upsert(episode({ body: 'broken \uD800 half' })).outcome).toBe('unchanged');
    expect(store.upsert(episode({ body: 'broken \uFFFD half' })).outcome).toBe('unchanged');
  });

  it('refuses a body or metadata over the cap, naming the cap, and writes nothing', () => {
    expect(() =>
      store.upsert(episode({ body: 'x'.repeat(graphLimits.bodyCharacters + 1) })),
    ).toThrow(/body is over 65536 characters: shorten/);
    expect(() =>
      store.upsert(episode({ meta: { blob: 'x'.repeat(graphLimits.metaCharacters) } })),
    ).toThrow(/over the 65536 limit/);
    let deep: unknown = 'bottom';
    for (let level = 0; level < 40; level += 1) deep = [deep];
    expect(() => store.upsert(episode({ meta: { deep } }))).toThrow(GraphInputError);
    expect(() => store.upsert(episode({ occurred_at: 'last tuesday' }))).toThrow(
      /occurred_at must be/,
    );
    expect(store.episodes().total).toBe(0);
  });

  it('counts candidates it ignores: empty, too long, repeated or past the cap', () => {
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
    const result = store.upsert(episode({ meta: { entities } }));
    expect(result.facts.staged).toBe(graphLimits.candidatesPerEpisode);
    // 'ada ' repeats Ada, one name is too long, six come past the cap; the extractor already
    // skipped the blank and the malformed one.
    expect(result.facts.ignored).toBe(1 + 1 + 6);
  });

  it('refuses to reuse the key of a redacted episode', () => {
    store.upsert(episode());
    store.redact({ source: 'agent:mecha' });
    expect(() => store.upsert(episode())).toThrow(/was redacted .* not reused/);
  });

  it('uses the extractor it is given', () => {
    store.close();
    const shouting: Extractor = {
      name: 'shouting',
      extract: (item) => [
        { kind: 'entity', subject: item.body.toUpperCase(), predicate: 'is a', object: 'shout' },
      ],
    };
    store = openGraphStore({ path: database.path, extractor: shouting });
    store.upsert(episode({ body: 'hello' }));
    expect(facts().map((item) => item.text)).toEqual(['HELLO is a shout']);
  });

  it('acts on meta.corrections only from a clean session, and counts the rest as withheld', () => {
    store.upsert(episode());
    const corrections = [
      { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale', about: 'Priya Nair' },
    ];
    const untrusted = store.upsert(
      episode({
        source_id: 'session-2',
        meta: { taint: { private: false, untrusted: true }, corrections },
      }),
    );
    expect(untrusted).toMatchObject({ corrections: null, corrections_withheld: 1 });
    const unknown = store.upsert(
      episode({ source_id: 'session-3', meta: { taint: { unknown: true }, corrections } }),
    );
    expect(unknown.corrections_withheld).toBe(1);
    expect(fact('Priya Nair is at Brown').status).toBe('staged');
    const clean = store.upsert(
      episode({
        source_id: 'session-4',
        meta: { taint: { private: true, untrusted: false }, corrections },
      }),
    );
    expect(clean.corrections).toMatchObject({ applied: 1, denied: 0, to_review: 0 });
    expect(fact('Priya Nair is at Brown').status).toBe('closed');
    expect(fact('Priya Nair is at Yale').status).toBe('staged');
    const again = store.upsert(
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
  beforeEach(() => {
    store.upsert(episode());
  });

  it('closes the wrong belief in time, stages the replacement and marks its source down', () => {
    const wrong = fact('Priya Nair is at Brown');
    const report = store.correct({
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
    const closed = store.get({ fact_id: wrong.id }) as FactDetail;
    expect(closed).toMatchObject({ status: 'closed', valid_to: '2026-09-01', denied: false });
    expect(closed.closed_at).not.toBeNull();
    const replacement = fact('Priya Nair is at Yale');
    expect(replacement).toMatchObject({
      status: 'staged',
      supersedes: wrong.id,
      origin: 'correction',
      kind: 'relation',
    });
    expect(closed.superseded_by).toEqual([replacement.id]);
    expect(replacement.trust).toBe(0.5);
    expect(fact('Priya Nair is a person').trust).toBe(0.5);
    const db = raw();
    expect(db.prepare('SELECT count(*) AS n FROM facts WHERE id = ?').get(wrong.id)).toEqual({
      n: 1,
    });
    db.close();
  });

  it('records a denial when right is left out, and nothing proposes the belief again', () => {
    const report = store.correct({
      source: 'owner',
      corrections: [{ wrong: { subject: 'Priya Nair', predicate: 'is at', object: 'Brown' } }],
    });
    expect(report).toMatchObject({ applied: 0, denied: 1 });
    expect(fact('Priya Nair is at Brown').status).toBe('denied');
    const again = store.upsert(episode({ source_id: 'session-2' }));
    expect(again.facts).toMatchObject({ blocked_by_denial: 1, staged: 0, supported: 1 });
    expect(facts().map((item) => item.text)).toEqual(['Priya Nair is a person']);
    const replaced = store.correct({
      source: 'owner',
      corrections: [{ wrong: 'Priya Nair is a person', right: 'Priya Nair is at Brown' }],
    });
    expect(replaced.results[0]).toMatchObject({
      outcome: 'applied',
      replacement_blocked: true,
      replacement_fact_id: null,
    });
    expect(store.search().total).toBe(0);
  });

  it('sends a correction that matches no belief, or several, to review instead of guessing', () => {
    store.upsert(
      episode({
        source_id: 'session-2',
        meta: { relations: [{ subject: 'Priya Nair is', predicate: 'at', object: 'Brown' }] },
      }),
    );
    const report = store.correct({
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
    expect(facts().every((item) => item.status === 'staged')).toBe(true);
    const queue = store.reviewList({ queue: 'corrections' }) as Page<CorrectionItem>;
    expect(queue.total).toBe(3);
    expect(queue.items[0]).toMatchObject({
      status: 'review',
      review_reason: 'ambiguous',
      right: 'Priya Nair is at Yale',
    });
  });

  it('reports a correction sent twice as a duplicate and acts once', () => {
    const request = {
      source: 'agent:mecha',
      source_id: 'session-9',
      corrections: [{ wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale' }],
    };
    expect(store.correct(request).applied).toBe(1);
    expect(store.correct(request)).toMatchObject({ applied: 0, duplicate: 1 });
    const db = raw();
    expect(
      db
        .prepare('SELECT corrections_against AS n FROM sources WHERE source = ?')
        .get('agent:mecha'),
    ).toEqual({ n: 1 });
    db.close();
  });

  it('stores free-text replacements that do not extend the belief as statements', () => {
    store.correct({
      source: 'agent:mecha',
      corrections: [
        {
          wrong: 'Priya Nair is at Brown',
          right: 'She left academia in June',
          about: 'Priya Nair',
        },
      ],
    });
    expect(fact('She left academia in June')).toMatchObject({
      kind: 'statement',
      subject: 'Priya Nair',
      status: 'staged',
    });
  });

  it('lets a person resolve a waiting correction by naming the belief, or dismiss one', () => {
    const report = store.correct({
      source: 'agent:mecha',
      corrections: [
        { wrong: 'Priya is at Brown', right: 'Priya Nair is at Yale' },
        { wrong: 'something else entirely' },
      ],
    });
    const [first, second] = report.results;
    const wrong = fact('Priya Nair is at Brown');
    const resolved = store.resolveCorrection({
      correction_id: first?.correction_id ?? 0,
      fact_id: wrong.id,
    });
    expect(resolved).toMatchObject({ status: 'applied', wrong_fact_id: wrong.id });
    expect(fact('Priya Nair is at Yale').status).toBe('staged');
    expect(store.resolveCorrection({ correction_id: second?.correction_id ?? 0 }).status).toBe(
      'dismissed',
    );
    expect(store.reviewList({ queue: 'corrections' }).total).toBe(0);
    expect(() => store.resolveCorrection({ correction_id: second?.correction_id ?? 0 })).toThrow(
      /not waiting for review/,
    );
  });
});

describe('an ungrounded correction', () => {
  it('waits in review with the belief it matched, closes nothing, and a person can apply it', () => {
    store.upsert(episode());
    const wrong = fact('Priya Nair is at Brown');
    const report = store.correct({
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
    expect(fact('Priya Nair is at Brown').status).toBe('staged');
    const waiting = store.reviewList({ queue: 'corrections' }) as Page<CorrectionItem>;
    expect(waiting.items.map((item) => item.review_reason)).toEqual(['ungrounded']);
    store.resolveCorrection({
      correction_id: report.results[0]?.correction_id ?? 0,
      fact_id: wrong.id,
    });
    expect(fact('Priya Nair is at Brown').status).toBe('closed');
  });
});

describe('review decisions', () => {
  it('accepts a staged fact, and rejecting one records a denial', () => {
    store.upsert(episode());
    const brown = fact('Priya Nair is at Brown');
    const person = fact('Priya Nair is a person');
    expect(store.decide({ fact_id: person.id, decision: 'accept' })).toMatchObject({
      status: 'accepted',
    });
    expect(store.decide({ fact_id: brown.id, decision: 'reject' })).toMatchObject({
      status: 'rejected',
      denial_recorded: true,
    });
    expect(() => store.decide({ fact_id: brown.id, decision: 'accept' })).toThrow(
      /only staged facts/,
    );
    expect(() => store.decide({ fact_id: 12345, decision: 'accept' })).toThrow(
      /no fact with id 12345/,
    );
    expect(store.upsert(episode({ source_id: 'session-2' })).facts.blocked_by_denial).toBe(1);
    expect(store.reviewList().total).toBe(0);
  });

  it('orders the queue by the salience of the sessions behind each fact', () => {
    store.upsert(episode({ source_id: 'calm', meta: { entities: [{ name: 'Calm' }] } }));
    store.upsert(
      episode({
        source_id: 'bad',
        meta: {
          entities: [{ name: 'Troubled' }],
          goal_errors: [{ channel: 'counter', sign: -0.5, agency: 'owner' }, { sign: 0.3 }],
        },
      }),
    );
    const queue = store.reviewList() as Page<FactItem & { salience: number }>;
    expect(queue.items.map((item) => [item.subject, item.salience])).toEqual([
      ['Troubled', 0.5],
      ['Calm', 0],
    ]);
  });
});

describe('reading the graph', () => {
  it('pages with offset and limit, clamps an oversized limit and says so', () => {
    store.upsert(
      episode({
        meta: {
          entities: Array.from({ length: 150 }, (_, index) => ({ name: `Person ${index}` })),
        },
      }),
    );
    const first = store.search({ limit: 1000 });
    expect(first).toMatchObject({
      total: 150,
      limit: 100,
      limit_capped: true,
      next_offset: 100,
      offset: 0,
    });
    expect(first.items).toHaveLength(100);
    const second = store.search({ limit: 1000, offset: first.next_offset ?? 0 });
    expect(second.items).toHaveLength(50);
    expect(second.next_offset).toBeNull();
    const ids = new Set([...first.items, ...second.items].map((item) => item.id));
    expect(ids.size).toBe(150);
    expect(store.search({ query: 'person 14' }).total).toBe(11);
    expect(store.search({ query: '100%' }).total).toBe(0);
  });

  it('returns current facts by default and counts what it suppressed', () => {
    store.upsert(episode());
    store.correct({ source: 'owner', corrections: [{ wrong: 'Priya Nair is at Brown' }] });
    const page = store.search({ query: 'priya' });
    expect(page.items.map((item) => item.text)).toEqual(['Priya Nair is a person']);
    expect(page.suppressed).toMatchObject({ denied: 1, closed: 0, retracted: 0, rejected: 0 });
    expect(store.search({ query: 'priya', status: 'all' }).total).toBe(2);
    expect(store.search({ status: 'denied' }).items.map((item) => item.status)).toEqual(['denied']);
  });

  it('marks every item with provenance, trust and status', () => {
    const stored = store.upsert(episode());
    for (const item of facts()) {
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
    const [listed] = store.episodes().items;
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

  it('lists episode bodies as previews and gives the whole body by key', () => {
    const body = 'y'.repeat(graphLimits.bodyPreviewCharacters + 10);
    store.upsert(episode({ body, meta: { taint: { unknown: true } } }));
    const [listed] = store.episodes({ source: 'agent:mecha' }).items;
    expect(listed?.body).toHaveLength(graphLimits.bodyPreviewCharacters);
    expect(listed?.body_truncated).toBe(true);
    expect(listed?.taint).toBe('unknown');
    const detail = store.get({ source: 'agent:mecha', source_id: 'session-1' }) as EpisodeDetail;
    expect(detail.body).toBe(body);
    expect(detail.body_truncated).toBe(false);
    expect(store.episodes({ source: 'someone-else' }).total).toBe(0);
  });

  it('asks for exactly one selector and says where ids come from', () => {
    expect(() => store.get({})).toThrow(/exactly one of/);
    expect(() => store.get({ fact_id: 1, episode_id: 1 })).toThrow(/exactly one of/);
    expect(() => store.get({ source: 'agent:mecha' })).toThrow(/exactly one of/);
    expect(() => store.get({ fact_id: 77 })).toThrow(
      /no fact with id 77: fact ids come from kg_search/,
    );
    expect(() => store.get({ episode_id: 77 })).toThrow(/no such episode/);
  });
});

describe('redacting a source set', () => {
  beforeEach(() => {
    store.upsert(episode());
    store.upsert(
      episode({
        source: 'import:calendar',
        source_id: 'event-1',
        meta: { entities: [{ name: 'Priya Nair', type: 'person' }] },
      }),
    );
    store.decide({ fact_id: fact('Priya Nair is at Brown').id, decision: 'accept' });
    store.correct({
      source: 'agent:mecha',
      source_id: 'session-1',
      corrections: [{ wrong: 'missing belief' }],
    });
  });

  it('reports without changing anything on a dry run', () => {
    const report = store.redact({ source: 'agent:mecha', dry_run: true });
    expect(report).toMatchObject({
      dry_run: true,
      episodes_redacted: 1,
      corrections_redacted: 1,
      facts_closed: 1,
      support_rows_removed: 2,
    });
    expect(store.episodes().total).toBe(2);
    expect(fact('Priya Nair is at Brown').status).toBe('accepted');
  });

  it('drops its support, closes facts left unsupported, and blanks bodies to tombstones', () => {
    const report = store.redact({ source: 'agent:mecha' });
    expect(report).toMatchObject({
      dry_run: false,
      episodes_redacted: 1,
      corrections_redacted: 1,
      facts_closed: 1,
    });
    expect(fact('Priya Nair is at Brown')).toMatchObject({ status: 'retracted' });
    expect(fact('Priya Nair is a person')).toMatchObject({
      status: 'staged',
      provenance: { support_count: 1 },
    });
    const listed = store.episodes();
    expect(listed.total).toBe(1);
    expect(listed.suppressed.redacted).toBe(1);
    const db = raw();
    const row = db
      .prepare('SELECT body, meta, redacted_at FROM episodes WHERE source = ?')
      .get('agent:mecha') as {
      body: string;
      meta: string;
      redacted_at: string | null;
    };
    expect(row).toMatchObject({ body: '', meta: '{}' });
    expect(row.redacted_at).not.toBeNull();
    expect(
      db.prepare(`SELECT count(*) AS n FROM corrections WHERE status = 'review'`).get(),
    ).toEqual({ n: 0 });
    db.close();
    expect(store.redact({ source: 'agent:mecha' }).episodes_redacted).toBe(0);
  });
});

describe('the default extractor', () => {
  it('stages what the prose states plainly, with the episode as provenance', () => {
    const made = tempFolder();
    const prose = openGraphStore({ path: join(made.folder, 'prose.db') });
    try {
      const stored = prose.upsert(
        episode({
          body: 'Omar Haddad was at Initech until spring.',
          meta: { taint: { untrusted: false } },
        }),
      );
      expect(stored.facts.staged).toBe(2);
      const queue = prose.reviewList() as Page<FactItem>;
      expect(queue.items.map((item) => item.text).sort()).toEqual([
        'Omar Haddad is a entity',
        'Omar Haddad is at Initech',
      ]);
      expect(queue.items[0]?.provenance.episode_ids).toEqual([stored.episode_id]);
      expect(queue.items[0]?.provenance.taint).toEqual({ clean: 1, untrusted: 0, unknown: 0 });
    } finally {
      prose.close();
      made.remove();
    }
  });
});

describe('searching by text', () => {
  it('finds substrings through the full-text index, short and wildcard-looking queries too', () => {
    const made = tempFolder();
    const searched = openGraphStore({
      path: join(made.folder, 'search.db'),
      extractor: metadataExtractor,
    });
    try {
      searched.upsert(
        episode({
          meta: {
            relations: [
              { subject: 'Priya Nair', predicate: 'is at', object: 'Brown' },
              { subject: 'Omar', predicate: 'owns', object: '100% of Initech_2' },
            ],
          },
        }),
      );
      const texts = (query: string) =>
        (searched.search({ query }).items as FactItem[]).map((item) => item.text).sort();
      expect(texts('NAIR IS AT')).toEqual(['Priya Nair is at Brown']);
      expect(texts('at')).toEqual(['Priya Nair is at Brown']);
      expect(texts('100%')).toEqual(['Omar owns 100% of Initech_2']);
      expect(texts('h_2')).toEqual(['Omar owns 100% of Initech_2']);
      expect(texts('yale')).toEqual([]);
    } finally {
      searched.close();
      made.remove();
    }
  });

  it('upgrades a version 1 file: the index is built from the facts already there', () => {
    const made = tempFolder();
    const path = join(made.folder, 'old.db');
    const first = openGraphStore({ path, extractor: metadataExtractor });
    first.upsert(episode());
    first.close();
    const raw = new Database(path);
    raw.exec(
      'DROP TRIGGER facts_text_insert; DROP TRIGGER facts_text_delete; DROP TRIGGER facts_text_update; DROP TABLE facts_text; PRAGMA user_version = 1;',
    );
    raw.close();
    const upgraded = openGraphStore({ path, extractor: metadataExtractor });
    try {
      expect(
        (upgraded.search({ query: 'nair is at' }).items as FactItem[]).map((item) => item.text),
      ).toEqual(['Priya Nair is at Brown']);
      upgraded.upsert(
        episode({
          source_id: 'session-2',
          meta: { relations: [{ subject: 'Dana', predicate: 'leads', object: 'Atlas' }] },
        }),
      );
      expect(upgraded.search({ query: 'leads atl' }).total).toBe(1);
    } finally {
      upgraded.close();
      made.remove();
    }
  });
});
