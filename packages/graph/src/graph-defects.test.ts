import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from './__fixtures__/graph-backends.js';
import { binPath, callOk, callTool, spawnGraphServer } from './__fixtures__/spawn-graph-server.js';
import { episode, tempFolder } from './__fixtures__/temp-graph.js';
import { graphTools } from './create-graph-server.js';
import { GraphInputError } from './graph-input-error.js';
import { graphLimits } from './limits.js';
import { openGraphStore } from './open-graph-store.js';
import type { EpisodeItem } from './read-graph/items.js';
import type { Page } from './read-graph/page.js';

// Bad input found by trying it against the built server, spoken to by the SDK's real client.

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function served(role: 'distiller' | 'owner' = 'distiller') {
  const made = tempFolder();
  cleanups.push(made.remove);
  const path = join(made.folder, 'graph.db');
  const spawned = await spawnGraphServer(['--db', path, '--role', role]);
  cleanups.push(spawned.close);
  return { ...spawned, path };
}

function textOf(result: unknown): string {
  const [first] = (result as { content: { type: string; text?: string }[] }).content;
  return first?.type === 'text' ? (first.text ?? '') : '';
}

function rows(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM episodes').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('a kg_upsert message over the stdio limit', () => {
  it('is refused with a tool error, and the connection keeps answering', async () => {
    const { client, path } = await served();
    const body = 'x'.repeat(graphLimits.stdioMessageBytes + 1024);
    // Without the fix the server's transport closes and this call never gets a reply; the
    // request timeout only turns that hang into a red test instead of a stuck run.
    const refused = await client.callTool(
      { name: 'kg_upsert', arguments: { ...episode(), body } },
      undefined,
      { timeout: 45_000 },
    );
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/over the .* byte limit/);
    const after = await callOk<Page<EpisodeItem>>(client, 'kg_episodes', {});
    expect(after.total).toBe(0);
    expect(await callOk(client, 'kg_upsert', { ...episode() })).toMatchObject({
      outcome: 'inserted',
    });
    expect(rows(path)).toBe(1);
  }, 120_000);
});

describe('a stdio message that cannot be answered', () => {
  it('ends the server process instead of leaving it deaf', async () => {
    const made = tempFolder();
    cleanups.push(made.remove);
    const child = spawn(process.execPath, [binPath, '--db', join(made.folder, 'graph.db')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanups.push(() => child.kill());
    const exited = once(child, 'exit');
    // No id anywhere in it: nobody could be answered, so the connection is closed.
    child.stdin.write(
      `{"jsonrpc":"2.0","method":"notify","params":{"x":"${'y'.repeat(graphLimits.stdioMessageBytes)}"}}\n`,
    );
    const [code] = await exited;
    expect(code).toBe(0);
  }, 60_000);
});

describe('keys holding lone UTF-16 surrogates', () => {
  it('are refused on every path: upsert, get, correct, episodes and redact', async () => {
    const { client, path } = await served('owner');
    const calls: [string, Record<string, unknown>][] = [
      ['kg_upsert', { ...episode(), source_id: 'k\uD800' }],
      ['kg_upsert', { ...episode(), source_id: 'k\uDBFF' }],
      ['kg_upsert', { ...episode(), source: 'agent:\uDC00mecha' }],
      ['kg_get', { source: 'agent:mecha', source_id: 'k\uD800' }],
      [
        'kg_correct',
        { source: 'agent:mecha', source_id: 'k\uD800', corrections: [{ wrong: 'a' }] },
      ],
      ['kg_episodes', { source: 'agent:\uD800' }],
      ['kg_redact', { source: 'agent:mecha', source_id: 'k\uD800' }],
    ];
    for (const [name, args] of calls) {
      const result = await callTool(client, name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(/lone UTF-16 surrogate/);
    }
    expect(rows(path)).toBe(0);
    // A well-formed pair is fine, and reads back under the same key.
    await callOk(client, 'kg_upsert', { ...episode(), source_id: 'k\uD83D\uDE00' });
    const got = await callOk<{ source_id: string }>(client, 'kg_get', {
      source: 'agent:mecha',
      source_id: 'k\uD83D\uDE00',
    });
    expect(got.source_id).toBe('k\uD83D\uDE00');
  });

  it.each(testEngines)(
    'are refused by the store called in-process too, on $name',
    async (engine) => {
      const made = await engine.create();
      cleanups.push(made.remove);
      const store = await openGraphStore({ path: made.path });
      cleanups.push(() => store.close());
      await expect(store.upsert({ ...episode(), source_id: 'k\uD800' })).rejects.toThrow(
        GraphInputError,
      );
      await expect(store.get({ source: 'agent:mecha', source_id: 'k\uD800' })).rejects.toThrow(
        /lone UTF-16 surrogate/,
      );
      expect((await store.episodes()).total).toBe(0);
    },
  );
});

function walk(value: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const item of value) walk(item, visit);
  else if (value !== null && typeof value === 'object') {
    visit(value as Record<string, unknown>);
    for (const inner of Object.values(value)) walk(inner, visit);
  }
}

describe('the tool schemas', () => {
  it('declare no empty additionalProperties, express kg_get as one of three, and give every tool an outputSchema', async () => {
    const { client } = await served('owner');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...graphTools.owner].sort());
    for (const tool of tools) {
      walk([tool.inputSchema, tool.outputSchema], (node) => {
        if ('additionalProperties' in node) {
          expect(node.additionalProperties, tool.name).not.toEqual({});
        }
      });
      expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    }
    const get = tools.find((tool) => tool.name === 'kg_get');
    expect((get?.inputSchema as { oneOf?: unknown } | undefined)?.oneOf).toEqual([
      { required: ['fact_id'] },
      { required: ['episode_id'] },
      { required: ['source', 'source_id'] },
    ]);
  });

  it('match what every tool answers (the SDK client checks each reply against its outputSchema)', async () => {
    const { client } = await served('owner');
    await client.listTools();
    const upserted = await callOk<{ episode_id: number }>(client, 'kg_upsert', { ...episode() });
    await callOk(client, 'kg_upsert', { ...episode() });
    const staged = await callOk<{ items: { id: number }[] }>(client, 'kg_review_list', {});
    await callOk(client, 'kg_review_list', { queue: 'corrections' });
    await callOk(client, 'kg_search', { query: 'priya' });
    await callOk(client, 'kg_get', { episode_id: upserted.episode_id });
    await callOk(client, 'kg_get', { fact_id: staged.items[0]?.id });
    await callOk(client, 'kg_episodes', { include_redacted: true });
    await callOk(client, 'kg_review_decide', {
      fact_id: staged.items[0]?.id,
      decision: 'accept',
    });
    const report = await callOk<{ results: { correction_id: number }[] }>(client, 'kg_correct', {
      source: 'owner',
      corrections: [{ wrong: 'nobody said this' }, { wrong: 'Priya Nair is at Brown' }],
    });
    await callOk(client, 'kg_review_list', { queue: 'corrections' });
    await callOk(client, 'kg_correction_resolve', {
      correction_id: report.results[0]?.correction_id,
    });
    await callOk(client, 'kg_redact', { source: 'agent:mecha', dry_run: true });
    await callOk(client, 'kg_redact', { source: 'agent:mecha' });
    await callOk(client, 'kg_episodes', { include_redacted: true });
  });
});
