import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, spawnGraphServer } from './__fixtures__/spawn-graph-server.js';
import { episode, tempFolder } from './__fixtures__/temp-graph.js';
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

async function server(path: string) {
  const spawned = await spawnGraphServer(['--db', path]);
  cleanups.push(spawned.close);
  return spawned.client;
}

const perServer = 120;

describe('several processes writing one graph file', () => {
  it('loses nothing when two server processes upsert at once', async () => {
    const path = databasePath();
    const [left, right] = await Promise.all([server(path), server(path)]);
    const push = (client: typeof left, name: string) =>
      Array.from({ length: perServer }, (_, index) =>
        callOk<UpsertResult>(client, 'kg_upsert', {
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
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM episodes').get()).toEqual({ n: 2 * perServer });
    // One current fact for the shared entity however the two writers interleaved, supported by all.
    expect(
      db
        .prepare(
          `SELECT count(*) AS facts, (SELECT count(*) FROM support s JOIN facts f ON f.id = s.fact_id
             WHERE f.subject = 'Shared Project') AS support FROM facts WHERE subject = 'Shared Project'`,
        )
        .get(),
    ).toEqual({ facts: 1, support: 2 * perServer });
    expect(db.prepare('SELECT count(*) AS n FROM facts').get()).toEqual({ n: 2 * perServer + 1 });
    db.close();
  });

  it('waits out another writer holding the lock instead of failing or dropping the write', async () => {
    const path = databasePath();
    const client = await server(path);
    await callOk(client, 'kg_upsert', { ...episode({ source_id: 'before' }) });
    const other = new Database(path);
    other.pragma('busy_timeout = 5000');
    other.exec('BEGIN IMMEDIATE');
    other
      .prepare(`INSERT INTO sources (source, first_seen_at) VALUES ('direct-writer', '2026-01-01')`)
      .run();
    const pending = callOk<UpsertResult>(client, 'kg_upsert', {
      ...episode({ source_id: 'during' }),
    });
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await sleep(1500);
    expect(settled).toBe(false);
    other.exec('COMMIT');
    other.close();
    expect((await pending).outcome).toBe('inserted');
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT source_id FROM episodes ORDER BY id').all()).toEqual([
      { source_id: 'before' },
      { source_id: 'during' },
    ]);
    expect(
      db.prepare(`SELECT count(*) AS n FROM sources WHERE source = 'direct-writer'`).get(),
    ).toEqual({ n: 1 });
    db.close();
  });
});
