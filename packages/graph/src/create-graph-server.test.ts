import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestGraph, testEngines } from './__fixtures__/graph-backends.js';
import { episode } from './__fixtures__/temp-graph.js';
import { createGraphServer, type GraphRole, graphTools } from './create-graph-server.js';
import { type GraphStore, openGraphStore } from './open-graph-store.js';

describe.each(testEngines)('createGraphServer on $name', (engine) => {
  let graph: TestGraph;
  let store: GraphStore;
  const clients: Client[] = [];

  beforeEach(async () => {
    graph = await engine.create();
    store = await openGraphStore({ path: graph.path, busyTimeoutMs: 100 });
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await store.close();
    await graph.remove();
  });

  async function connect(role?: GraphRole): Promise<Client> {
    const server = createGraphServer(role === undefined ? { store } : { store, role });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  async function call(
    client: Client,
    name: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  function text(result: CallToolResult): string {
    const [first] = result.content;
    return first?.type === 'text' ? first.text : '';
  }

  describe('its tools', () => {
    it('gives a distiller no review or redaction tools', async () => {
      const client = await connect();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...graphTools.distiller].sort());
      expect(tools.map((tool) => tool.name)).not.toContain('kg_review_decide');
      expect(tools.map((tool) => tool.name)).not.toContain('kg_redact');
      const refused = await call(client, 'kg_redact', { source: 'agent:mecha' });
      expect(refused.isError).toBe(true);
      expect((await store.episodes()).total).toBe(0);
    });

    it('gives the owner the person-only tools as well', async () => {
      const client = await connect('owner');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...graphTools.owner].sort());
      for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    });

    it('answers with structured JSON that matches its text', async () => {
      const client = await connect();
      const result = await call(client, 'kg_upsert', { ...episode() });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ outcome: 'inserted', facts: { staged: 2 } });
      expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    });

    it('turns invalid input into a tool error that says what to fix, and keeps serving', async () => {
      const client = await connect();
      const bad = await call(client, 'kg_upsert', { ...episode(), occurred_at: 'soon', body: '' });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/occurred_at must be a date/);
      expect(text(bad)).toMatch(/body is empty: send the episode text/);
      const missing = await call(client, 'kg_get', { fact_id: 5 });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/no fact with id 5: fact ids come from kg_search/);
      const good = await call(client, 'kg_search', {});
      expect(good.isError).toBeFalsy();
    });

    it('reports a database held by another writer as a retryable tool error', async () => {
      const client = await connect();
      const release = await graph.holdWriteLock();
      const blocked = await call(client, 'kg_upsert', { ...episode() });
      await release();
      expect(blocked.isError).toBe(true);
      expect(text(blocked)).toMatch(/locked by another process .* retry the call/);
      const retried = await call(client, 'kg_upsert', { ...episode() });
      expect(retried.structuredContent).toMatchObject({ outcome: 'inserted' });
    });

    it('reports an unexpected failure as a tool error instead of crashing', async () => {
      const client = await connect();
      await store.close();
      const failed = await call(client, 'kg_search', {});
      expect(failed.isError).toBe(true);
      expect(text(failed)).toMatch(/internal error in the graph server .*nothing was written/);
      store = await openGraphStore({ path: graph.path });
    });
  });
});
