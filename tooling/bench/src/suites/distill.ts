import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  connectGraph,
  type DistillReport,
  distill,
  type Episode,
  episodeSource,
  type GraphConnection,
} from '@mecha/distill';
import { generateHome } from '@mecha/fixtures/home';
import { contentHash, openGraphStore } from '@mecha/graph';
import { createScriptedModel } from '@mecha/local-model';
import { openHome } from '@mecha/stores';
import { type Measurement, measure, median, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

const graphEntry = createRequire(import.meta.url).resolve('@mecha/graph');
const graphBin = join(dirname(graphEntry), 'bin.js');
const now = new Date('2026-11-01T00:00:00Z');

// better-sqlite3 is the graph's own dependency; the bench borrows it from there to seed a large
// graph in one transaction, and needs only these few calls.
interface SeedDatabase {
  prepare(sql: string): { run(...values: unknown[]): unknown };
  transaction(work: () => void): () => void;
  pragma(statement: string): unknown;
  close(): void;
}
type SeedDatabaseConstructor = new (path: string) => SeedDatabase;
const Database = createRequire(graphEntry)('better-sqlite3') as SeedDatabaseConstructor;

function folder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'mecha-bench-distill-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

function writeConfig(home: string, db: string): void {
  writeFileSync(
    join(home, 'config.toml'),
    [
      '[[mcp]]',
      'name = "graph"',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = [${[graphBin, '--db', db].map((part) => JSON.stringify(part)).join(', ')}]`,
      'prefix_tools = false',
      '',
      '[mcp.capabilities]',
      'untrusted_input = true',
      '',
    ].join('\n'),
  );
}

/** The distiller's answer, the follow-up's and the fact extraction's, each about as long as a real model's. */
function scripted() {
  return createScriptedModel((prompt) => {
    if (prompt.includes('\nEpisode to extract facts from:\n')) {
      return JSON.stringify({
        entities: [
          { name: 'Lakeside', type: 'organization' },
          { name: 'Priya Nair', type: 'person' },
          { name: 'Omar Haddad', type: 'person' },
        ],
        relations: [
          {
            subject: 'Priya Nair',
            predicate: 'confirmed',
            object: 'figures',
            quote: 'Priya Nair, who confirmed the figures',
          },
          {
            subject: 'report',
            predicate: 'is for',
            object: 'Lakeside',
            quote: 'totals report for Lakeside',
          },
        ],
      });
    }
    if (prompt.includes('\nFollow-up question about the same session.')) {
      return JSON.stringify({
        interpretation:
          'The run produced the totals report the owner asked for and it went out on time.',
        claims: [],
        prediction: 'The owner will release the next report unchanged.',
        expected_act: 'released_unchanged',
        goal: null,
      });
    }
    const session = /\nSession (\S+), from /.exec(prompt)?.[1] ?? 'a session';
    return JSON.stringify({
      skip: false,
      episode: `In ${session} the owner and mecha prepared the quarterly totals report for Lakeside and sent it to Priya Nair, who confirmed the figures.`,
    });
  });
}

async function distillOnce(
  sessions: number,
  appraise: boolean,
  extractFacts: boolean,
): Promise<{ report: DistillReport; ms: number }> {
  const made = folder();
  try {
    const home = join(made.path, 'home');
    generateHome({ path: home, seed: 'bench-distill', sessions });
    writeConfig(home, join(made.path, 'graph.db'));
    const started = performance.now();
    const result = await distill({
      home: openHome(home),
      model: scripted(),
      clock: () => now,
      appraise,
      extractFacts,
    });
    const ms = performance.now() - started;
    if (result.state !== 'done') throw new Error(result.message);
    return { report: result.report, ms };
  } finally {
    made.remove();
  }
}

/** The content hash the graph keeps, over the same JSON the episode is sent as. */
function hashOf(item: Episode): string {
  const { kind, source_ref, occurred_at, body, meta } = item;
  return contentHash(JSON.parse(JSON.stringify({ kind, source_ref, occurred_at, body, meta })));
}

function episode(index: number): Episode {
  return {
    kind: 'episode',
    source: episodeSource,
    source_id: `20260601T000000-${index.toString(16).padStart(8, '0')}`,
    source_ref: `/home/owner/.mecha/sessions/${index}.jsonl`,
    occurred_at: new Date(Date.parse('2026-06-01T00:00:00Z') + index * 60_000).toISOString(),
    body: `Episode ${index}: the owner and mecha prepared the totals report for Lakeside and sent it to Priya Nair.`,
    meta: {
      taint: { private: true, untrusted: index % 5 === 0 },
      distilled_by: 'sha256:bench',
      affect: 'neutral',
      goal_errors: [],
    },
  };
}

/** Writes `count` episodes straight into a new graph file, in one transaction. */
async function seedGraph(path: string, count: number): Promise<void> {
  await (await openGraphStore({ path })).close();
  const db = new Database(path);
  const at = new Date().toISOString();
  db.prepare(
    'INSERT INTO sources (source, corrections_against, first_seen_at) VALUES (?, 0, ?)',
  ).run(episodeSource, at);
  const insert = db.prepare(
    `INSERT INTO episodes (kind, source, source_id, source_ref, occurred_at, body, meta, content_hash, salience, version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 1, ?, ?)`,
  );
  db.transaction(() => {
    for (let index = 0; index < count; index += 1) {
      const item = episode(index);
      insert.run(
        item.kind,
        item.source,
        item.source_id,
        item.source_ref,
        item.occurred_at,
        item.body,
        JSON.stringify(item.meta),
        hashOf(item),
        at,
        at,
      );
    }
  })();
  db.close();
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

/** Times `kg_upsert` over MCP: new keys, then changed bodies of keys already in the graph. */
async function upsertLatency(
  seeded: number,
  calls: number,
): Promise<{ inserted: number[]; updated: number[] }> {
  const made = folder();
  const db = join(made.path, 'graph.db');
  let graph: GraphConnection | undefined;
  try {
    await seedGraph(db, seeded);
    const connected = await connectGraph({
      name: 'graph',
      command: process.execPath,
      args: [graphBin, '--db', db],
      env: {},
      prefix_tools: false,
      capabilities: { untrusted_input: true },
    });
    if (connected._tag === 'Left') throw new Error(connected.left.message);
    graph = connected.right;
    const time = async (item: Episode): Promise<number> => {
      const started = performance.now();
      const answer = await graph?.upsert(item);
      const ms = performance.now() - started;
      if (answer === undefined) throw new Error('no graph');
      if (answer._tag === 'Left') throw new Error(answer.left.message);
      return ms;
    };
    for (let index = 0; index < 20; index += 1) await time(episode(seeded + calls + index));
    const inserted: number[] = [];
    for (let index = 0; index < calls; index += 1)
      inserted.push(await time(episode(seeded + index)));
    const updated: number[] = [];
    for (let index = 0; index < calls; index += 1) {
      const existing = episode((index * 7919) % Math.max(1, seeded));
      updated.push(await time({ ...existing, body: `${existing.body} Updated.` }));
    }
    return { inserted, updated };
  } finally {
    await graph?.close();
    made.remove();
  }
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

/** Distillation's throughput into the embedded graph, `kg_upsert` latency in a large graph, and a no-op rerun. */
export const distillSuite: Suite = {
  id: 'distill',
  title: 'Distill: episodes into the graph, kg_upsert latency, the no-op rerun',
  run: async () => {
    const tables: ResultTable[] = [];

    const sessions = 400;
    const throughput: string[][] = [];
    let baseline: number | undefined;
    for (const [appraise, extract, name] of [
      [false, false, 'episode only (1 model call)'],
      [false, true, 'episode + fact extraction (2 model calls)'],
      [true, true, 'episode + text appraisal + fact extraction (3 model calls)'],
    ] as const) {
      const samples: { report: DistillReport; ms: number }[] = [];
      for (let sample = 0; sample < 3; sample += 1)
        samples.push(await distillOnce(sessions, appraise, extract));
      const report = samples[0]?.report;
      const pushed = report?.counts.pushed ?? 0;
      const facts = (report?.facts.entities ?? 0) + (report?.facts.relations ?? 0);
      const middle = median(samples.map((sample) => sample.ms));
      baseline ??= middle;
      throughput.push([
        name,
        String(pushed),
        ms(middle),
        `${((pushed / middle) * 1000).toFixed(0)}`,
        extract ? `${facts} (${((facts / middle) * 1000).toFixed(0)}/s)` : '—',
        `${(middle / baseline).toFixed(2)}×`,
      ]);
    }
    tables.push({
      title: `Episodes per second into the embedded graph (ScriptedModel, generated home of ${sessions} sessions)`,
      columns: [
        'run',
        'episodes pushed',
        'wall time (median of 3)',
        'episodes / s',
        'extracted facts sent',
        'time vs episode only',
      ],
      rows: throughput,
      notes: [
        `Load average (1 min) when the runs ended: ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores. Other work shares the machine, so compare the rows of one run (the last column), not figures across runs.`,
        'Extracted facts are what the scripted extractor proposed and the episode’s words carry (entities and relations, sent as meta.entities/meta.relations); the graph queues each as a candidate for review.',
        'The whole use-case: config, session list, ledger, each transcript read and rendered, the scripted model, a real `mecha-graph-mcp` process over stdio (its start-up included), and a ledger mark (fsync) under the learning lock per session. The model is instant, so this is the harness’s own cost; a real model adds its decode time per session.',
      ],
    });

    const calls = 300;
    const small = await upsertLatency(0, calls);
    const large = await upsertLatency(100_000, calls);
    const row = (name: string, values: readonly number[]) => [
      name,
      ms(percentile(values, 0.5)),
      ms(percentile(values, 0.99)),
      ms(Math.max(...values)),
    ];
    tables.push({
      title: `kg_upsert over MCP (stdio), ${calls} calls each`,
      columns: ['graph', 'p50', 'p99', 'max'],
      rows: [
        row('empty graph, new keys', small.inserted),
        row('100k episodes, new keys', large.inserted),
        row('100k episodes, changed bodies of existing keys', large.updated),
      ],
      notes: [
        'Seeded straight into SQLite in one transaction, then timed through distill’s own client (`connectGraph`) against a real server process. Each call is one `BEGIN IMMEDIATE` transaction with `synchronous = FULL`, so the fsync dominates.',
      ],
    });

    const made = folder();
    try {
      const homePath = join(made.path, 'home');
      generateHome({ path: homePath, seed: 'bench-noop', sessions: 2_000 });
      writeConfig(homePath, join(made.path, 'graph.db'));
      const first = await distill({
        home: openHome(homePath),
        model: scripted(),
        clock: () => now,
        appraise: false,
      });
      if (first.state !== 'done') throw new Error(first.message);
      const home = openHome(homePath);
      let calls = 0;
      let open = 0;
      const rerun: Measurement = await measure('no-op rerun', async () => {
        const result = await distill({ home, model: scripted(), clock: () => now });
        if (result.state === 'done') {
          calls += result.report.modelCalls + result.report.graphCalls;
          open = result.report.considered;
        }
      });
      const ledger = await measure('ledger read alone', () => home.learning.distilled.read());
      const listing = await measure('session list alone', () => home.sessions.list());
      tables.push({
        title: 'A no-op rerun over a home of 2,000 sessions, every closed one distilled',
        columns: ['work', 'median', 'vs the ledger read'],
        rows: [
          [ledger.name, ms(ledger.median), '1.0×'],
          [listing.name, ms(listing.median), `${(listing.median / ledger.median).toFixed(1)}×`],
          [rerun.name, ms(rerun.median), `${(rerun.median / ledger.median).toFixed(1)}×`],
        ],
        notes: [
          `Model and graph calls over all the reruns: ${calls}. A rerun reads config.toml, lists the sessions (one small read per transcript head), reads the ledger once and stops. The ${open} sessions still open (parked on a question) have their transcripts and the question store read again each time.`,
        ],
      });
    } finally {
      made.remove();
    }
    return tables;
  },
};
