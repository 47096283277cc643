import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from './__fixtures__/graph-backends.js';
import { binPath, callOk } from './__fixtures__/spawn-graph-server.js';
import {
  connectHttpClient,
  type HttpGraphServer,
  initializeRequest,
  rawPost,
  spawnHttpGraphServer,
} from './__fixtures__/spawn-http-graph-server.js';
import { episode, tempFolder } from './__fixtures__/temp-graph.js';
import { graphTools } from './create-graph-server.js';
import { graphLimits } from './limits.js';
import type { EpisodeItem, FactItem } from './read-graph/items.js';
import type { Page } from './read-graph/page.js';
import type { UpsertResult } from './upsert-episode.js';

const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function databasePath(): string {
  const made = tempFolder();
  cleanups.push(made.remove);
  return join(made.folder, 'graph.db');
}

async function server(
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<HttpGraphServer> {
  const spawned = await spawnHttpGraphServer(args, environment);
  cleanups.push(spawned.stop);
  return spawned;
}

async function client(url: string, token?: string): Promise<Client> {
  const connected = await connectHttpClient(url, token);
  cleanups.push(() => connected.close());
  return connected;
}

function episodeCount(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM episodes').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

const token = 'correct-horse-battery-staple';

describe('mecha-graph-mcp --http with the SDK client over Streamable HTTP', () => {
  it('lists the tools, stores an episode and finds its facts, and stops cleanly', async () => {
    const path = databasePath();
    const graph = await server(['--db', path]);
    expect(graph.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(graph.stderr()).toContain(`serving ${path} as distiller on ${graph.url} (no token)`);
    const mcp = await client(graph.url);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...graphTools.distiller].sort());

    const stored = await callOk<UpsertResult>(mcp, 'kg_upsert', { ...episode() });
    expect(stored).toMatchObject({ outcome: 'inserted', facts: { staged: 2 } });
    const found = await callOk<Page<FactItem>>(mcp, 'kg_search', { subject: 'priya nair' });
    expect(found.items.map((item) => item.text).sort()).toEqual([
      'Priya Nair is a person',
      'Priya Nair is at Brown',
    ]);
    await mcp.close();
    expect(await graph.stop()).toBe(0);
    expect(episodeCount(path)).toBe(1);
  });

  it('serves the owner role with its extra tools', async () => {
    const graph = await server(['--db', databasePath(), '--role', 'owner']);
    const { tools } = await (await client(graph.url)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...graphTools.owner].sort());
  });

  it('keeps every write from two clients upserting at the same time', async () => {
    const path = databasePath();
    const graph = await server(['--db', path], { MECHA_GRAPH_TOKEN: token });
    const [alice, bob] = await Promise.all([client(graph.url, token), client(graph.url, token)]);
    const perClient = 25;
    const writes = (mcp: Client, who: string) =>
      Array.from({ length: perClient }, (_, index) =>
        callOk<UpsertResult>(mcp, 'kg_upsert', {
          ...episode({
            source: `person:${who}`,
            source_id: `${who}-${index}`,
            body: `${who} met Priya Nair, note ${index}.`,
          }),
        }),
      );
    const results = await Promise.all([...writes(alice, 'alice'), ...writes(bob, 'bob')]);
    expect(results.every((result) => result.outcome === 'inserted')).toBe(true);
    expect(new Set(results.map((result) => result.episode_id)).size).toBe(2 * perClient);

    const listed = await callOk<Page<EpisodeItem>>(alice, 'kg_episodes', { source: 'person:bob' });
    expect(listed.total).toBe(perClient);
    expect(await graph.stop()).toBe(0);
    expect(episodeCount(path)).toBe(2 * perClient);
  });

  it('refuses a missing or wrong token with 401 and writes nothing', async () => {
    const path = databasePath();
    const graph = await server(['--db', path], { MECHA_GRAPH_TOKEN: token });
    expect(graph.stderr()).toContain('(bearer token required)');
    const upsert = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'kg_upsert', arguments: { ...episode() } },
    };
    for (const headers of [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${token}x` },
      { authorization: `Basic ${token}` },
      { authorization: token },
    ]) {
      const opened = await rawPost(graph.url, headers, initializeRequest);
      expect(opened.status).toBe(401);
      expect(opened.headers['www-authenticate']).toBe('Bearer');
      expect(opened.headers['mcp-session-id']).toBeUndefined();
      expect((await rawPost(graph.url, headers, upsert)).status).toBe(401);
    }
    await expect(connectHttpClient(graph.url, 'wrong')).rejects.toThrow(/401|Unauthorized/);
    // The right token opens a session, and the graph it sees is empty.
    const good = await client(graph.url, token);
    expect((await callOk<Page<EpisodeItem>>(good, 'kg_episodes', {})).total).toBe(0);
    expect(await graph.stop()).toBe(0);
    expect(episodeCount(path)).toBe(0);
  });

  it('refuses a foreign Host or Origin (DNS rebinding) with 403', async () => {
    const graph = await server(['--db', databasePath()]);
    const port = new URL(graph.url).port;
    const foreignHost = await rawPost(
      graph.url,
      { host: `evil.example:${port}` },
      initializeRequest,
    );
    expect(foreignHost.status).toBe(403);
    const smuggled = await rawPost(
      graph.url,
      { host: `evil.example@127.0.0.1:${port}` },
      initializeRequest,
    );
    expect(smuggled.status).toBe(403);
    expect(foreignHost.headers['mcp-session-id']).toBeUndefined();
    const foreignOrigin = await rawPost(
      graph.url,
      { origin: 'http://evil.example' },
      initializeRequest,
    );
    expect(foreignOrigin.status).toBe(403);
    // Loopback names pass: the same request from localhost opens a session.
    const local = await rawPost(
      graph.url,
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      initializeRequest,
    );
    expect(local.status).toBe(200);
    expect(local.headers['mcp-session-id']).toEqual(expect.any(String));
  });

  it('answers an unknown session 404, no session 400, another path 404, an oversized body 413', async () => {
    const graph = await server(['--db', databasePath()]);
    const list = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} };
    expect((await rawPost(graph.url, { 'mcp-session-id': 'no-such-session' }, list)).status).toBe(
      404,
    );
    expect((await rawPost(graph.url, {}, list)).status).toBe(400);
    const elsewhere = await rawPost(graph.url.replace(/\/mcp$/, '/other'), {}, initializeRequest);
    expect(elsewhere.status).toBe(404);
    const oversized = await fetch(graph.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"x":"${'a'.repeat(graphLimits.httpBodyBytes)}"}}`,
    });
    expect(oversized.status).toBe(413);
  });

  it('will not bind beyond loopback without a token, and explains bad flags', () => {
    const path = databasePath();
    const environment = { ...process.env };
    delete environment.MECHA_GRAPH_TOKEN;
    const open = spawnSync(
      process.execPath,
      [binPath, '--http', '--host', '0.0.0.0', '--port', '0', '--db', path],
      // A server that wrongly started would never exit: the limit turns that hang into a failure.
      { encoding: 'utf8', env: environment, timeout: 60_000 },
    );
    expect(open.status).toBe(2);
    expect(open.stderr).toContain('MECHA_GRAPH_TOKEN');
    expect(existsSync(path)).toBe(false);
    for (const [args, message] of [
      [['--http', '--port', 'eighty'], '--port must be a whole number'],
      [['--port', '8080'], '--port needs --http'],
      [['--host', 'localhost'], '--host needs --http'],
    ] as const) {
      const bad = spawnSync(process.execPath, [binPath, ...args], {
        encoding: 'utf8',
        env: environment,
      });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain(message);
      expect(bad.stderr).toContain('usage: mecha-graph-mcp');
    }
  });
});

describe('mecha-graph-mcp --http on PostgreSQL', () => {
  it('serves a team database named by URL, and never prints its password', async () => {
    const postgres = testEngines.find((engine) => engine.name === 'postgres');
    if (postgres === undefined) throw new Error('no PostgreSQL engine');
    const made = await postgres.create();
    cleanups.push(made.remove);
    // The test server trusts loopback, so any password gets in; it must still never be shown.
    const url = made.path.replace('postgres://mecha@', 'postgres://mecha:s3cret-pw@');
    const graph = await server(['--db', url, '--role', 'owner']);
    expect(graph.stderr()).toContain(
      `serving ${made.path.replace('mecha@', 'mecha:***@')} as owner`,
    );
    expect(graph.stderr()).not.toContain('s3cret-pw');
    const mcp = await client(graph.url);
    expect(await callOk<UpsertResult>(mcp, 'kg_upsert', { ...episode() })).toMatchObject({
      outcome: 'inserted',
    });
    await mcp.close();
    expect(await graph.stop()).toBe(0);
    expect(await made.row('SELECT count(*) AS n FROM episodes')).toEqual({ n: 1 });
  });
});

describe.each(testEngines)('eight HTTP clients upserting at once on $name', (engine) => {
  it('keeps every episode exactly once, and a resend of all of them changes nothing', async () => {
    const made = await engine.create();
    cleanups.push(made.remove);
    const graph = await server(['--db', made.path]);
    const clients = await Promise.all(Array.from({ length: 8 }, () => client(graph.url)));
    const perClient = 25;
    const push = () =>
      Promise.all(
        clients.flatMap((mcp, c) =>
          Array.from({ length: perClient }, (_, k) =>
            callOk<UpsertResult>(mcp, 'kg_upsert', {
              ...episode({
                source: `member:${c % 4}`,
                source_id: `session-${c}-${k}`,
                body: `client ${c} episode ${k}`,
                meta: { entities: [{ name: 'Team Project' }, { name: `Person ${c}-${k}` }] },
              }),
            }),
          ),
        ),
      );
    // Warm the server's connections first (concurrent reads), so the burst below really runs
    // side by side: on a cold pool the first write can finish before a second connection opens.
    await Promise.all(
      clients.flatMap((mcp) =>
        Array.from({ length: 4 }, () => callOk(mcp, 'kg_search', { query: 'warm' })),
      ),
    );
    const first = await push();
    expect(first.filter((result) => result.outcome === 'inserted')).toHaveLength(8 * perClient);
    const again = await push();
    expect(again.filter((result) => result.outcome === 'unchanged')).toHaveLength(8 * perClient);
    expect(
      await made.row(
        `SELECT (SELECT count(*) FROM episodes) AS episodes,
           (SELECT count(*) FROM facts WHERE subject = 'Team Project') AS shared,
           (SELECT count(*) FROM support s JOIN facts f ON f.id = s.fact_id
              WHERE f.subject = 'Team Project') AS support,
           (SELECT count(*) FROM facts) AS facts`,
      ),
    ).toEqual({ episodes: 200, shared: 1, support: 200, facts: 201 });
  });
});
