import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectGraph,
  type GraphConnection,
  type GraphOwnerSession,
  openGraphOwner,
} from '@mecha/distill';
import { rightOrThrow } from '@mecha/errors';
import { type McpServerConfig, openHome } from '@mecha/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphBin, type HttpGraph, startHttpGraph } from './graph-server.js';
import { boardApp, csrfToken, emptyHome, followed, origin, post, snapshot } from './helpers.js';

// The real graph server (@mecha/graph's built bin), reached through @mecha/distill's owner
// use-case (the one path the CLI's `mecha graph` takes too): started here over stdio, and
// running on its own over Streamable HTTP with a bearer token. The candidates are placed
// through its own kg_upsert, as distillation places them.
const token = 'web-test-token-0123456789';
const base: McpServerConfig = {
  name: 'graph',
  args: [],
  env: {},
  prefix_tools: false,
  capabilities: {},
};

describe.each(['stdio', 'http'] as const)('the graph review queue over %s', (kind) => {
  let folder: string;
  let home: string;
  let http: HttpGraph | undefined;
  let server: McpServerConfig;
  let review: GraphOwnerSession;
  let placer: GraphConnection;
  const env = { WEB_TEST_GRAPH_TOKEN: token };
  let app: Awaited<ReturnType<typeof boardApp>>['app'];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mecha-web-graph-'));
    const db = join(folder, 'graph.db');
    if (kind === 'http') {
      http = await startHttpGraph(['--db', db, '--role', 'owner'], token);
      server = { ...base, url: http.url, token_env: 'WEB_TEST_GRAPH_TOKEN' };
    } else {
      server = { ...base, command: process.execPath, args: [graphBin, '--db', db] };
    }
    home = emptyHome();
    review = openGraphOwner(openHome(home), { server, env });
    const connected = await connectGraph(server, { env });
    placer = rightOrThrow(connected, 'the placer’s connection');
    const placed = await placer.call('kg_upsert', {
      kind: 'episode',
      source: 'agent:mecha',
      source_id: 'session-1',
      occurred_at: '2026-11-20T10:00:00Z',
      body: 'Ana confirmed the venue. A stranger wrote <script>alert(1)</script>.',
      meta: {
        taint: 'third_party',
        relations: [
          { subject: 'Ana', predicate: 'works at', object: 'Northwind' },
          { subject: 'Mallory', predicate: 'says', object: '<script>alert("x")</script>' },
        ],
      },
    });
    expect(placed._tag).toBe('Right');
    ({ app } = await boardApp(home, { graph: review }));
  });

  afterAll(async () => {
    await review.close();
    await placer.close();
    await http?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const factIds = async (): Promise<Map<string, string>> => {
    const text = await (await app.request(`${origin}/review`)).text();
    const ids = new Map<string, string>();
    for (const match of text.matchAll(
      /<li id="fact-(\d+)"[^>]*>[\s\S]*?<div class="run__answer">([^<]*)<\/div>/g,
    )) {
      ids.set(match[2] as string, match[1] as string);
    }
    return ids;
  };

  it('lists the staged candidates, a stranger’s markup as text', async () => {
    const text = await (await app.request(`${origin}/review`)).text();
    expect(text).toContain('Ana works at Northwind');
    expect(text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(text).not.toContain('<script>alert');
  });

  it('approves one and denies the other, and a denied one is never proposed again', async () => {
    const ids = await factIds();
    const approve = ids.get('Ana works at Northwind') as string;
    const deny = [...ids.entries()].find(([fact]) => fact.startsWith('Mallory'))?.[1] as string;
    const approved = await followed(
      app,
      post(app, `/review/facts/${approve}`, {
        decision: 'accept',
        csrf: csrfToken,
      }),
    );
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain(`Approved fact ${approve}`);
    const denied = await followed(
      app,
      post(app, `/review/facts/${deny}`, {
        decision: 'reject',
        csrf: csrfToken,
      }),
    );
    expect(await denied.text()).toContain('the denial is remembered');
    expect((await factIds()).size).toBe(0);
    // The same claim from a new episode is not staged again.
    const again = await placer.call('kg_upsert', {
      kind: 'episode',
      source: 'agent:mecha',
      source_id: 'session-2',
      occurred_at: '2026-11-21T10:00:00Z',
      body: 'Mallory again.',
      meta: {
        relations: [
          { subject: 'Mallory', predicate: 'says', object: '<script>alert("x")</script>' },
        ],
      },
    });
    expect(again._tag).toBe('Right');
    expect([...(await factIds()).keys()].some((fact) => fact.startsWith('Mallory'))).toBe(false);
    // Deciding it twice is the graph's refusal, shown as such.
    const twice = await post(app, `/review/facts/${deny}`, { decision: 'accept', csrf: csrfToken });
    expect(twice.status).toBe(409);
  });

  it('resolves a correction no single belief matched by dismissing it', async () => {
    const reported = await placer.call('kg_correct', {
      source: 'agent:mecha',
      source_id: 'session-3',
      corrections: [{ wrong: 'Bob is at <b>Brown</b>', right: 'Bob is at Yale' }],
    });
    expect(reported._tag).toBe('Right');
    const page = await (await app.request(`${origin}/review`)).text();
    const id = /<li id="correction-(\d+)"/.exec(page)?.[1];
    expect(id).toBeDefined();
    expect(page).toContain('Bob is at &lt;b&gt;Brown&lt;/b&gt;');
    const resolved = await followed(
      app,
      post(app, `/review/corrections/${id}`, { fact_id: '', csrf: csrfToken }),
    );
    expect(resolved.status).toBe(200);
    expect(await resolved.text()).toContain(`Correction ${id}: dismissed.`);
  });

  it('redacts a source through the owner tool', async () => {
    const redacted = await followed(
      app,
      post(app, '/review/redact', { source: 'agent:mecha', csrf: csrfToken }),
    );
    expect(redacted.status).toBe(200);
    expect(await redacted.text()).toContain(
      'Redacted every episode and correction from agent:mecha',
    );
  });

  it('says why when no graph server is configured', async () => {
    const { app: bare } = await boardApp(emptyHome(), {
      graphMissing: 'config.toml has no [[mcp]] server named graph',
    });
    expect(await (await bare.request(`${origin}/review`)).text()).toContain(
      'config.toml has no [[mcp]] server named graph',
    );
  });
});

describe('the review page against a remote graph it cannot use', () => {
  let folder: string;
  let http: HttpGraph;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mecha-web-graph-'));
    http = await startHttpGraph(['--db', join(folder, 'graph.db'), '--role', 'owner'], token);
  });

  afterAll(async () => {
    await http.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('names the token variable on a wrong token, shows no empty queue, and writes nothing', async () => {
    const server = { ...base, url: http.url, token_env: 'WEB_TEST_GRAPH_TOKEN' };
    const home = emptyHome();
    const before = snapshot(home);
    const wrong = openGraphOwner(openHome(home), {
      server,
      env: { WEB_TEST_GRAPH_TOKEN: 'not-the-token' },
    });
    const { app } = await boardApp(home, { graph: wrong });
    const page = await (await app.request(`${origin}/review`)).text();
    expect(page).toContain('refused the bearer token (HTTP 401)');
    expect(page).toContain('$WEB_TEST_GRAPH_TOKEN');
    expect(page).not.toContain('Nothing waits for review');
    const act = await post(app, '/review/redact', { source: 'agent:mecha', csrf: csrfToken });
    expect(act.status).toBe(409);
    expect(await act.text()).toContain('$WEB_TEST_GRAPH_TOKEN');
    await wrong.close();
    expect(snapshot(home)).toEqual(before);
  });

  it('names the address it cannot reach and how to start the server there', async () => {
    // A port that was just listening and is closed now: nothing answers there.
    const gone = await startHttpGraph(['--db', join(folder, 'gone.db')], token);
    await gone.stop();
    const owner = openGraphOwner(openHome(emptyHome()), {
      server: { ...base, url: gone.url, token_env: 'WEB_TEST_GRAPH_TOKEN' },
      env: { WEB_TEST_GRAPH_TOKEN: token },
    });
    const { app } = await boardApp(emptyHome(), { graph: owner });
    const page = await (await app.request(`${origin}/review`)).text();
    expect(page).toContain(`cannot reach the graph at ${gone.url}`);
    expect(page).toContain('mecha-graph-mcp --http');
    expect(page).not.toContain('Nothing waits for review');
    await owner.close();
  });
});
