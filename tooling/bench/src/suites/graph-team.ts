import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import pg from 'pg';
// The graph package's own test fixtures: the real built server on a free port, the SDK's client
// over Streamable HTTP, and a throwaway PostgreSQL server (initdb into a temporary folder).
import { startPostgresServer } from '../../../../packages/graph/src/__fixtures__/postgres-server.js';
import { callOk } from '../../../../packages/graph/src/__fixtures__/spawn-graph-server.js';
import {
  connectHttpClient,
  spawnHttpGraphServer,
} from '../../../../packages/graph/src/__fixtures__/spawn-http-graph-server.js';
import { tempFolder } from '../../../../packages/graph/src/__fixtures__/temp-graph.js';
import type { ResultTable } from '../measure.js';
import { median } from '../measure.js';
import type { Suite } from './index.js';

// better-sqlite3 is the graph's own dependency; the rows are counted with it directly.
const Database = createRequire(createRequire(import.meta.url).resolve('@mecha/graph'))(
  'better-sqlite3',
) as new (
  path: string,
  options?: { readonly: boolean },
) => { prepare(sql: string): { get(): unknown }; close(): void };

const clients = 8;
const members = 4;
const upserts = 2_000;
const window = 16;

interface Outcome {
  readonly outcome: 'inserted' | 'updated' | 'unchanged';
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)] as number;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Episode `n` as one of four members (two machines, two processes each) would push it. */
function teamEpisode(n: number) {
  const member = n % members;
  return {
    kind: 'episode',
    source: `member:${member}`,
    source_id: `session-${n}`,
    source_ref: `machine-${member % 2}:/home/member-${member}/.mecha/sessions/${n}.jsonl`,
    occurred_at: new Date(Date.parse('2026-11-01T00:00:00Z') + n * 60_000).toISOString(),
    body: `Episode ${n}: member ${member} worked on the Team Project with person ${n}.`,
    meta: {
      taint: { private: false, untrusted: false },
      entities: [
        { name: 'Team Project', type: 'project' },
        { name: `Person ${n}`, type: 'person' },
      ],
    },
  };
}

interface RoundResult {
  readonly latencies: number[];
  readonly wallMs: number;
  readonly outcomes: Map<string, number>;
}

/**
 * Every upsert queued at once, spread over the clients; each client keeps `window` calls in flight
 * (a process's connection pool: 2,000 sockets opened at once overflow the listen backlog and
 * time out in connect). Each call's time is from its send to its reply.
 */
async function round(connected: readonly Client[]): Promise<RoundResult> {
  const latencies: number[] = [];
  const outcomes = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    connected.map(async (client, index) => {
      const mine = Array.from(
        { length: Math.ceil((upserts - index) / connected.length) },
        (_, k) => index + k * connected.length,
      );
      const next = () => mine.shift();
      await Promise.all(
        Array.from({ length: window }, async () => {
          for (let n = next(); n !== undefined; n = next()) {
            const sent = performance.now();
            const result = await callOk<Outcome>(client, 'kg_upsert', teamEpisode(n));
            latencies.push(performance.now() - sent);
            outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
          }
        }),
      );
    }),
  );
  return {
    latencies: latencies.sort((a, b) => a - b),
    wallMs: performance.now() - started,
    outcomes,
  };
}

interface StoreRun {
  readonly first: RoundResult;
  readonly again: RoundResult;
  readonly counts: {
    episodes: number;
    keys: number;
    shared_facts: number;
    shared_support: number;
    facts: number;
  };
}

const countsSql = `SELECT (SELECT count(*) FROM episodes) AS episodes,
  (SELECT count(*) FROM (SELECT DISTINCT source, source_id FROM episodes) AS k) AS keys,
  (SELECT count(*) FROM facts WHERE subject = 'Team Project') AS shared_facts,
  (SELECT count(*) FROM support s JOIN facts f ON f.id = s.fact_id WHERE f.subject = 'Team Project') AS shared_support,
  (SELECT count(*) FROM facts) AS facts`;

async function runAgainst(db: string, count: () => Promise<StoreRun['counts']>): Promise<StoreRun> {
  const server = await spawnHttpGraphServer(['--db', db]);
  const connected: Client[] = [];
  try {
    for (let index = 0; index < clients; index += 1) {
      connected.push(await connectHttpClient(server.url));
    }
    const first = await round(connected);
    console.error(
      `  ${db.replace(/:[^:@/]*@/, ':***@')}: new episodes in ${(first.wallMs / 1000).toFixed(1)} s`,
    );
    // The same 2,000 again, all at once: every one must come back unchanged, nothing added.
    const again = await round(connected);
    return { first, again, counts: await count() };
  } finally {
    await Promise.allSettled(connected.map((client) => client.close()));
    await server.stop();
  }
}

function check(name: string, run: StoreRun): void {
  const { counts } = run;
  const ok =
    run.first.outcomes.get('inserted') === upserts &&
    run.again.outcomes.get('unchanged') === upserts &&
    counts.episodes === upserts &&
    counts.keys === upserts &&
    counts.shared_facts === 1 &&
    counts.shared_support === upserts &&
    counts.facts === upserts + 1;
  if (!ok) {
    throw new Error(
      `${name}: the concurrent upserts were not all kept exactly once: ${JSON.stringify({
        first: Object.fromEntries(run.first.outcomes),
        again: Object.fromEntries(run.again.outcomes),
        counts,
      })}`,
    );
  }
}

async function teamUpserts(): Promise<ResultTable> {
  const made = tempFolder();
  const postgres = await startPostgresServer();
  try {
    const sqlitePath = `${made.folder}/team.db`;
    const sqlite = await runAgainst(sqlitePath, async () => {
      const db = new Database(sqlitePath, { readonly: true });
      try {
        return db.prepare(countsSql).get() as StoreRun['counts'];
      } finally {
        db.close();
      }
    });
    check('SQLite', sqlite);
    const admin = new pg.Client({ connectionString: `${postgres.baseUrl}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE team');
    await admin.end();
    const url = `${postgres.baseUrl}/team`;
    const onPostgres = await runAgainst(url, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const row = (await client.query(countsSql)).rows[0] as Record<string, string>;
        return Object.fromEntries(
          Object.entries(row).map(([key, value]) => [key, Number(value)]),
        ) as StoreRun['counts'];
      } finally {
        await client.end();
      }
    });
    check('PostgreSQL', onPostgres);
    const row = (name: string, run: RoundResult, base: RoundResult) => [
      name,
      ms(median(run.latencies)),
      ms(percentile(run.latencies, 0.99)),
      `${(run.wallMs / 1000).toFixed(2)} s`,
      `${Math.round((upserts / run.wallMs) * 1000)}/s`,
      (median(run.latencies) / median(base.latencies)).toFixed(2),
    ];
    return {
      title: `${upserts.toLocaleString('en')} concurrent kg_upsert calls from ${clients} HTTP clients, one server per store`,
      columns: ['store, round', 'p50', 'p99', 'wall', 'upserts per second', 'p50 ratio to SQLite'],
      rows: [
        row('SQLite file, new episodes (the baseline)', sqlite.first, sqlite.first),
        row(
          `PostgreSQL ${postgres.version.replace(/^.*\) /, '')}, new episodes`,
          onPostgres.first,
          sqlite.first,
        ),
        row('SQLite file, the same episodes again', sqlite.again, sqlite.again),
        row('PostgreSQL, the same episodes again', onPostgres.again, sqlite.again),
      ],
      notes: [
        `${clients} SDK clients over Streamable HTTP stand for four processes on two machines with two connections each; the ${upserts.toLocaleString('en')} calls are queued at once, spread over the clients, each client keeping ${window} in flight (${clients * window} at a time), and each call's time is from send to reply. Every episode proposes one shared entity and one of its own, under one of four member sources.`,
        `Checked after each store: ${upserts.toLocaleString('en')} inserted, then ${upserts.toLocaleString('en')} unchanged; ${upserts.toLocaleString('en')} episodes with ${upserts.toLocaleString('en')} distinct keys; one current fact for the shared entity with ${upserts.toLocaleString('en')} support rows; ${(upserts + 1).toLocaleString('en')} facts in all. The run fails if any of these does not hold.`,
        "Writes queue on one lock on both stores (SQLite's write lock; a PostgreSQL advisory lock held for each write transaction), so the p99 is mostly the wait behind the other calls in flight. The PostgreSQL server is a local throwaway one (initdb, fsync off), so its figures leave out a network hop and durable commits.",
      ],
    };
  } finally {
    postgres.stop();
    made.remove();
  }
}

export const graphTeamSuite: Suite = {
  id: 'graph-team',
  title: 'Graph for a team: concurrent upserts over HTTP, SQLite and PostgreSQL',
  run: async () => [await teamUpserts()],
};
