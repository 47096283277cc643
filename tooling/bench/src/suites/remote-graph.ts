import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { actOnGraph, connectGraph, openGraphOwner } from '@mecha/distill';
import { initHome, type McpServerConfig, openHome, rightOrThrow } from '@mecha/stores';
import { measure, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

const graphBin = join(dirname(createRequire(import.meta.url).resolve('@mecha/graph')), 'bin.js');
const token = 'bench-remote-graph-token';
const ms = (value: number) => (value >= 10 ? value.toFixed(1) : value.toFixed(2));

async function startHttp(db: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [graphBin, '--http', '--port', '0', '--db', db, '--role', 'owner'],
    { env: { ...process.env, MECHA_GRAPH_TOKEN: token }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = / on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.once('exit', () => reject(new Error(stderr)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/**
 * The owner's review read (`review`, 50 of each queue) over a graph of 200 staged facts: one act
 * per connection (what `mecha graph review` does) against one connection kept between acts
 * (what the web board does), over stdio and over Streamable HTTP.
 */
async function run(): Promise<readonly ResultTable[]> {
  const folder = mkdtempSync(join(tmpdir(), 'mecha-bench-remote-'));
  const db = join(folder, 'graph.db');
  const homePath = join(folder, 'home');
  rightOrThrow(initHome(homePath));
  const home = openHome(homePath);
  const base = { name: 'graph', args: [], env: {}, prefix_tools: false, capabilities: {} };
  const stdio: McpServerConfig = {
    ...base,
    command: process.execPath,
    args: [graphBin, '--db', db],
  };
  const http = await startHttp(db);
  const remote: McpServerConfig = { ...base, url: http.url, token_env: 'BENCH_TOKEN' };
  const env = { BENCH_TOKEN: token };
  try {
    const placer = await connectGraph(stdio);
    if (placer._tag === 'Left') throw new Error(placer.left.message);
    const connection = placer.right;
    for (let n = 0; n < 100; n += 1) {
      await connection.call('kg_upsert', {
        kind: 'episode',
        source: 'agent:mecha',
        source_id: `session-${n}`,
        occurred_at: '2026-11-20T10:00:00Z',
        body: `Episode ${n}.`,
        meta: {
          relations: [
            { subject: `Person ${n}`, predicate: 'works at', object: `Place ${n}` },
            { subject: `Person ${n}`, predicate: 'lives in', object: `Town ${n}` },
          ],
        },
      });
    }
    await connection.close();
    const review = { act: 'review', limit: 50 } as const;
    const check = (result: Awaited<ReturnType<typeof actOnGraph>>) => {
      if (result._tag === 'Left') throw new Error(result.left.message);
    };
    const once = {
      stdio: await measure('one act per connection, stdio', async () =>
        check(await actOnGraph(home, review, { server: stdio })),
      ),
      http: await measure('one act per connection, HTTP', async () =>
        check(await actOnGraph(home, review, { server: remote, env })),
      ),
    };
    const keptStdio = openGraphOwner(home, { server: stdio });
    const keptHttp = openGraphOwner(home, { server: remote, env });
    const kept = {
      stdio: await measure('one connection kept, stdio', async () =>
        check(await keptStdio.act(review)),
      ),
      http: await measure('one connection kept, HTTP', async () =>
        check(await keptHttp.act(review)),
      ),
    };
    await keptStdio.close();
    await keptHttp.close();
    const baseline = once.stdio.median;
    const rows = [once.stdio, once.http, kept.stdio, kept.http].map((m) => [
      m.name,
      ms(m.median),
      `${(m.median / baseline).toFixed(3)}×`,
    ]);
    return [
      {
        title: 'The owner’s review read, local and remote graph (200 staged facts, 50 listed)',
        columns: ['how', 'median ms', 'vs one act per connection over stdio'],
        rows,
        notes: [
          'One act per connection is `mecha graph review` (`actOnGraph`): over stdio it starts a `mecha-graph-mcp` process each time; over HTTP it opens and ends an MCP session with a running one. One connection kept is the web board (`openGraphOwner`). Medians of 7 runs after a warm-up, in one run.',
          '',
          'The machine was shared with other builds while this ran; of an HTTP act per connection most is opening the MCP session (initialize and tools/list against a new server instance), not the review read.',
        ],
      },
    ];
  } finally {
    await http.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The owner's graph acts over stdio and Streamable HTTP, per act and over a kept connection. */
export const remoteGraphSuite: Suite = {
  id: 'remote-graph',
  title: 'Remote graph: the owner’s review over stdio and Streamable HTTP',
  run,
};
