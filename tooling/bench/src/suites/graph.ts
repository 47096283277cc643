import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { episodeExtractor, openGraphStore } from '@mecha/graph';
import { createScriptedModel } from '@mecha/local-model';
import type { ResultTable } from '../measure.js';
import { median } from '../measure.js';
import type { Suite } from './index.js';

// better-sqlite3 is the graph's own dependency; the baseline LIKE scan is timed with it directly.
const graphEntry = createRequire(import.meta.url).resolve('@mecha/graph');
const Database = createRequire(graphEntry)('better-sqlite3') as new (
  path: string,
  options?: { readonly: boolean },
) => {
  prepare(sql: string): { all(...parameters: unknown[]): unknown[] };
  close(): void;
};

const first = ['Priya', 'Omar', 'Dana', 'Lena', 'Kofi', 'Mei', 'Arjun', 'Sofia', 'Yusuf', 'Ines'];
const last = ['Nair', 'Haddad', 'Lee', 'Novak', 'Mensah', 'Chen', 'Rao', 'Costa', 'Demir', 'Silva'];
const places = ['Brown', 'Yale', 'Initech', 'Northwind', 'Globex', 'Umbrella', 'Hooli', 'Acme'];
const verbs = ['is at', 'works at', 'works on', 'leads', 'joined', 'reports to', 'lives in'];

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

/** A deterministic fact about entity `n`: 10 × 10 × 1,000 names, seven verbs, eight places. */
function triple(n: number) {
  const name = `${pick(first, n)} ${pick(last, Math.floor(n / 10))} ${Math.floor(n / 100) % 1000}`;
  return {
    subject: name,
    predicate: pick(verbs, Math.floor(n / 7)),
    object: `${pick(places, Math.floor(n / 3))} ${pick(['team', 'lab', 'office', 'board'], n)} ${n % 997}`,
  };
}

const middle = [
  'Alder',
  'Birch',
  'Cedar',
  'Dove',
  'Elm',
  'Fern',
  'Grove',
  'Hale',
  'Ivy',
  'Juniper',
];
const units = ['Lab', 'Team', 'Office', 'Board', 'Studio'];

/** A sentence the extractor can read plainly: capitalised names on both sides of a known verb. */
function sentence(n: number): string {
  const name = `${pick(first, n)} ${pick(middle, Math.floor(n / 10))} ${pick(last, Math.floor(n / 100))}`;
  const object = `${pick(places, Math.floor(n / 7))} ${pick(units, Math.floor(n / 3))}`;
  return `${name} ${pick(verbs, Math.floor(n / 11))} ${object}.`;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function extractorRate(): Promise<ResultTable> {
  const folder = mkdtempSync(join(tmpdir(), 'mecha-bench-graph-'));
  try {
    const episodes = 400;
    // The scripted model writes each episode as the distiller would: names and plain relations.
    const model = createScriptedModel((prompt) => {
      const n = Number(/episode (\d+)/.exec(prompt)?.[1] ?? 0);
      return [0, 1, 2].map((k) => sentence(n * 3 + k)).join(' ');
    });
    const texts: string[] = [];
    const modelStarted = performance.now();
    for (let n = 0; n < episodes; n += 1) {
      texts.push((await model.complete({ prompt: `episode ${n}`, maxTokens: 4_096 })).text);
    }
    const modelMs = performance.now() - modelStarted;
    const base = { kind: 'episode', source: 'agent:mecha', occurred_at: '2026-08-05', meta: {} };
    const extractStarted = performance.now();
    let proposed = 0;
    for (const [n, body] of texts.entries()) {
      proposed += episodeExtractor.extract({ ...base, source_id: `s${n}`, body }).length;
    }
    const extractMs = performance.now() - extractStarted;
    const store = await openGraphStore({ path: join(folder, 'graph.db') });
    const upsertStarted = performance.now();
    let staged = 0;
    for (const [n, body] of texts.entries()) {
      staged += (
        await store.upsert({
          ...base,
          source_id: `s${n}`,
          body,
          meta: { taint: { untrusted: false } },
        })
      ).facts.staged;
    }
    const upsertMs = performance.now() - upsertStarted;
    await store.close();
    const rate = (count: number, elapsed: number) => `${Math.round((count / elapsed) * 1000)}/s`;
    return {
      title: `Candidate facts through the extractor (ScriptedModel, ${episodes} episodes of three sentences)`,
      columns: ['step', 'time', 'candidate facts', 'facts per second'],
      rows: [
        ['scripted model writes the episodes', ms(modelMs), '—', '—'],
        ['episodeExtractor alone', ms(extractMs), String(proposed), rate(proposed, extractMs)],
        [
          'kg_upsert in-process (extract, stage, one transaction each, fsync)',
          ms(upsertMs),
          String(staged),
          rate(staged, upsertMs),
        ],
      ],
      notes: [
        'Every candidate waits in the review queue (staged); none is accepted by the extractor. The upsert row is the path `mecha distill` drives through the server, without the stdio hop.',
      ],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function searchLatency(): Promise<ResultTable> {
  const folder = mkdtempSync(join(tmpdir(), 'mecha-bench-graph-'));
  try {
    const path = join(folder, 'graph.db');
    const store = await openGraphStore({ path });
    const perEpisode = 100;
    const total = 100_000;
    const seedStarted = performance.now();
    for (let e = 0; e < total / perEpisode; e += 1) {
      const relations = Array.from({ length: perEpisode }, (_, k) => triple(e * perEpisode + k));
      await store.upsert({
        kind: 'episode',
        source: 'agent:mecha',
        source_id: `s${e}`,
        occurred_at: '2026-08-05',
        body: 'seeded',
        meta: { taint: { untrusted: false }, relations },
      });
    }
    const seedMs = performance.now() - seedStarted;
    const facts = (await store.search({ status: 'all', limit: 1 })).total;
    const none: number[] = [];
    for (let q = 0; q < 100; q += 1) {
      const started = performance.now();
      await store.search({ query: `nobody by the name ${q}` });
      none.push(performance.now() - started);
    }
    const queries = Array.from({ length: 300 }, (_, q) => {
      const fact = triple((q * 7_919) % total);
      return q % 3 === 0
        ? fact.subject
        : q % 3 === 1
          ? `${fact.subject} ${fact.predicate}`
          : `${fact.object}`;
    });
    const fts: number[] = [];
    for (const query of queries) {
      const started = performance.now();
      await store.search({ query });
      fts.push(performance.now() - started);
    }
    await store.close();
    // The baseline: the same substring match as the LIKE scan kg_search used before the index
    // (the count and the first page, as kg_search runs them), on the same file.
    const raw = new Database(path, { readonly: true });
    const scan: number[] = [];
    for (const query of queries) {
      const pattern = `%${query.toLowerCase()}%`;
      const started = performance.now();
      raw
        .prepare('SELECT status, count(*) FROM facts WHERE text_key LIKE ? GROUP BY status')
        .all(pattern);
      raw
        .prepare(
          `SELECT id FROM facts WHERE text_key LIKE ? AND status IN ('staged', 'accepted') ORDER BY id DESC LIMIT 20`,
        )
        .all(pattern);
      scan.push(performance.now() - started);
    }
    raw.close();
    fts.sort((a, b) => a - b);
    none.sort((a, b) => a - b);
    scan.sort((a, b) => a - b);
    return {
      title: `kg_search over ${facts.toLocaleString('en')} facts (in-process, ${queries.length} queries)`,
      columns: ['search', 'p50', 'p99', 'ratio of p50 to the LIKE scan'],
      rows: [
        [
          'LIKE scan of every fact (the baseline, SQL alone)',
          ms(median(scan)),
          ms(percentile(scan, 0.99)),
          '1.00',
        ],
        [
          'kg_search with the FTS5 trigram index (page, counts and provenance)',
          ms(median(fts)),
          ms(percentile(fts, 0.99)),
          (median(fts) / median(scan)).toFixed(2),
        ],
        [
          'kg_search with the index, a query matching nothing (the index alone)',
          ms(median(none)),
          ms(percentile(none, 0.99)),
          (median(none) / median(scan)).toFixed(2),
        ],
      ],
      notes: [
        `Seeding ${facts.toLocaleString('en')} facts through kg_upsert (${total / perEpisode} episodes of ${perEpisode} relations, index kept by triggers) took ${(seedMs / 1000).toFixed(1)} s.`,
        'Queries are a name, a name and its verb, or an object, drawn from the seeded facts (a page of 20 with each fact’s provenance: most of the time left is that page, not the match). A query under three characters cannot use the trigram index and scans.',
      ],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export const graphSuite: Suite = {
  id: 'graph',
  title: 'Graph: candidate facts through the extractor, kg_search over 100k facts',
  run: async () => [await extractorRate(), await searchLatency()],
};
