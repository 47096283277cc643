import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestEngine, type TestGraph, testEngines } from './__fixtures__/graph-backends.js';
import { callOk, callTool, spawnGraphServer } from './__fixtures__/spawn-graph-server.js';
import { episode } from './__fixtures__/temp-graph.js';
import type { UpsertResult } from './upsert-episode.js';

const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(engine: TestEngine): Promise<TestGraph> {
  const made = await engine.create();
  cleanups.push(made.remove);
  return made;
}

async function server(path: string) {
  const spawned = await spawnGraphServer(['--db', path]);
  cleanups.push(spawned.close);
  return spawned.client;
}

const perServer = 120;

/**
 * An upsert that, like any client of the server, calls again when the server refuses it as busy
 * (the other process held the write lock past the busy timeout, which a loaded machine can make
 * happen; the refusal says nothing was written). Any other error fails the test, and so does a
 * call still refused after 20 tries.
 */
async function upsertRetryingBusy(
  client: Parameters<typeof callTool>[0],
  args: Record<string, unknown>,
): Promise<UpsertResult> {
  for (let attempt = 1; ; attempt += 1) {
    const result = await callTool(client, 'kg_upsert', args);
    if (!result.isError) return result.structuredContent as unknown as UpsertResult;
    const [first] = result.content;
    const text = first?.type === 'text' ? first.text : '';
    if (!text.includes('past the busy timeout and nothing was written') || attempt === 20) {
      throw new Error(`kg_upsert failed (try ${attempt}): ${text}`);
    }
  }
}

describe.each(testEngines)('several processes writing one graph on $name', (engine) => {
  it('loses nothing when two server processes upsert at once', async () => {
    const graph = await database(engine);
    const [left, right] = await Promise.all([server(graph.path), server(graph.path)]);
    const push = (client: typeof left, name: string) =>
      Array.from({ length: perServer }, (_, index) =>
        upsertRetryingBusy(client, {
          ...episode({
            source_id: `${name}-${index}`,
            body: `${name} episode ${index}`,
            meta: {
              entities: [
                { name: 'Shared Project', type: 'project' },
                { name: `${name} person ${index}`, type: 'person' },
              ],
            },
          }),
        }),
      );
    const results = await Promise.all([...push(left, 'left'), ...push(right, 'right')]);
    expect(results.every((result) => result.outcome === 'inserted')).toBe(true);
    expect(await graph.row('SELECT count(*) AS n FROM episodes')).toEqual({ n: 2 * perServer });
    // One current fact for the shared entity however the two writers interleaved, supported by all.
    expect(
      await graph.row(
        `SELECT count(*) AS facts, (SELECT count(*) FROM support s JOIN facts f ON f.id = s.fact_id
           WHERE f.subject = 'Shared Project') AS support FROM facts WHERE subject = 'Shared Project'`,
      ),
    ).toEqual({ facts: 1, support: 2 * perServer });
    expect(await graph.row('SELECT count(*) AS n FROM facts')).toEqual({ n: 2 * perServer + 1 });
  });

  it('waits out another writer holding the lock instead of failing or dropping the write', async () => {
    const graph = await database(engine);
    const client = await server(graph.path);
    await callOk(client, 'kg_upsert', { ...episode({ source_id: 'before' }) });
    const release = await graph.holdWriteLock();
    const pending = callOk<UpsertResult>(client, 'kg_upsert', {
      ...episode({ source_id: 'during' }),
    });
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await sleep(1500);
    expect(settled).toBe(false);
    await release();
    expect((await pending).outcome).toBe('inserted');
    expect(await graph.rows('SELECT source_id FROM episodes ORDER BY id')).toEqual([
      { source_id: 'before' },
      { source_id: 'during' },
    ]);
  });
});
