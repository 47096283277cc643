import { rightOrThrow } from '@mecha/errors';
import { type McpServerConfig, openHome } from '@mecha/stores';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpGraph, startHttpGraph } from './__fixtures__/http-graph.js';
import { testHome } from './__fixtures__/test-home.js';
import { connectGraph } from './graph-client.js';
import { openGraphOwner } from './graph-owner.js';

// The owner's kept connection against a real `mecha-graph-mcp --http` process, restarted under it.
const token = 'owner-session-token-0123456789';
const env = { OWNER_TEST_TOKEN: token };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function graph(args: readonly string[]): Promise<HttpGraph> {
  const started = await startHttpGraph(args, token);
  cleanups.push(() => started.stop());
  return started;
}

describe('openGraphOwner over Streamable HTTP', () => {
  it('does an act again on a new session when the server no longer knows the old one, once', async () => {
    const made = testHome();
    cleanups.push(made.remove);
    const db = made.db;
    const first = await graph(['--db', db, '--role', 'owner']);
    const server: McpServerConfig = {
      name: 'graph',
      url: first.url,
      token_env: 'OWNER_TEST_TOKEN',
      args: [],
      env: {},
      prefix_tools: false,
      capabilities: {},
    };
    const placer = await connectGraph(server, { env });
    const placing = rightOrThrow(placer, 'the placer’s connection');
    const placed = await placing.call('kg_upsert', {
      kind: 'episode',
      source: 'agent:mecha',
      source_id: 'session-1',
      occurred_at: '2026-11-20T10:00:00Z',
      body: 'Ana confirmed the venue.',
      meta: { relations: [{ subject: 'Ana', predicate: 'works at', object: 'Northwind' }] },
    });
    expect(placed._tag).toBe('Right');
    await placing.close();

    const owner = openGraphOwner(openHome(made.path), { server, env });
    cleanups.push(() => owner.close());
    const listed = await owner.act({ act: 'review' });
    expect(listed._tag).toBe('Right');
    const id = (
      (listed._tag === 'Right' ? listed.right.data.facts : {}) as { items: { id: number }[] }
    ).items[0]?.id;
    expect(id).toBeDefined();

    // The same address, a new server process: the kept session is unknown there (HTTP 404).
    await first.stop();
    const port = new URL(first.url).port;
    await graph(['--db', db, '--role', 'owner', '--port', port]);
    const approved = await owner.act({ act: 'approve', id: `f${id}` });
    expect(approved).toMatchObject({ _tag: 'Right', right: { act: 'approve' } });
    const twice = await owner.act({ act: 'approve', id: `f${id}` });
    expect(twice._tag === 'Left' && twice.left.kind).toBe('call_failed');
  });
});
