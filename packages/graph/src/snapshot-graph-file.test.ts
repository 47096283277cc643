import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { callOk, spawnGraphServer } from './__fixtures__/spawn-graph-server.js';
import { episode, tempFolder } from './__fixtures__/temp-graph.js';
import { GraphInputError } from './graph-input-error.js';
import { openGraphStore } from './open-graph-store.js';
import { snapshotGraphFile } from './snapshot-graph-file.js';
import type { UpsertResult } from './upsert-episode.js';

// Real SQLite files throughout; the concurrent writer is a real mecha-graph-mcp process.

const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const made = tempFolder();
  cleanups.push(made.remove);
  return made.folder;
}

const bytes = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function person(index: number) {
  return episode({
    source_id: `s${index}`,
    body: `session ${index}`,
    meta: {
      relations: [{ subject: `Person ${index}`, predicate: 'is at', object: `Place ${index}` }],
    },
  });
}

async function graphFile(dir: string, episodes = 3): Promise<string> {
  const path = join(dir, 'graph.db');
  const store = await openGraphStore({ path });
  try {
    for (let index = 0; index < episodes; index += 1) await store.upsert(person(index));
  } finally {
    await store.close();
  }
  return path;
}

/** What a snapshot holds, read with plain SQL: and whether it is whole. */
function inspect(path: string) {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      episodes: (db.prepare('SELECT count(*) AS n FROM episodes').get() as { n: number }).n,
      // Each upsert writes its episode and the support for its facts in one transaction: a
      // torn copy would show an episode without any support.
      unsupported: (
        db
          .prepare(
            'SELECT count(*) AS n FROM episodes e WHERE NOT EXISTS (SELECT 1 FROM support s WHERE s.episode_id = e.id)',
          )
          .get() as { n: number }
      ).n,
    };
  } finally {
    db.close();
  }
}

describe('snapshotGraphFile', () => {
  it('copies a graph file that then opens as the same graph, leaving the original unwritten', async () => {
    const dir = folder();
    const path = await graphFile(dir);
    const before = bytes(path);
    const copy = join(dir, 'copy.db');
    await snapshotGraphFile(path, copy);
    expect(bytes(path)).toBe(before);
    expect(inspect(copy)).toEqual({ integrity: 'ok', episodes: 3, unsupported: 0 });
    const store = await openGraphStore({ path: copy });
    try {
      const facts = await store.search({ subject: 'Person 1' });
      expect(facts.items.map((fact) => fact.object)).toEqual(['Place 1']);
    } finally {
      await store.close();
    }
  });

  it('takes whole copies while another process keeps writing to the graph', async () => {
    const dir = folder();
    const path = await graphFile(dir, 1);
    const server = await spawnGraphServer(['--db', path]);
    cleanups.push(server.close);
    const total = 200;
    let acknowledged = 0;
    const writes = Array.from({ length: total }, (_, index) =>
      callOk<UpsertResult>(server.client, 'kg_upsert', { ...person(index + 1) }).then((result) => {
        acknowledged += 1;
        return result;
      }),
    );
    const seen: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      // Wait until the writer is that far (an event, not a sleep), then copy while it writes on.
      await writes[10 + round * 40];
      const floor = acknowledged;
      const copy = join(dir, `copy-${round}.db`);
      await snapshotGraphFile(path, copy);
      const found = inspect(copy);
      expect(found.integrity).toBe('ok');
      expect(found.unsupported).toBe(0);
      // Every write acknowledged before the copy began is in it.
      expect(found.episodes).toBeGreaterThanOrEqual(floor + 1);
      seen.push(found.episodes);
    }
    expect(seen).toEqual([...seen].sort((left, right) => left - right));
    expect((await Promise.all(writes)).every((result) => result.outcome === 'inserted')).toBe(true);
    const last = join(dir, 'copy-last.db');
    await snapshotGraphFile(path, last);
    expect(inspect(last)).toEqual({ integrity: 'ok', episodes: total + 1, unsupported: 0 });
  });

  it('refuses what is not a SQLite graph file, creating nothing', async () => {
    const dir = folder();
    const copy = join(dir, 'copy.db');
    const text = join(dir, 'notes.db');
    writeFileSync(text, 'not a database');
    const other = join(dir, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE things (id INTEGER PRIMARY KEY)');
    db.close();
    const otherBefore = bytes(other);
    const newer = await graphFile(join(dir, 'newer'));
    const bump = new Database(newer);
    bump.pragma('user_version = 99');
    bump.close();

    const refusals: [string, RegExp][] = [
      [join(dir, 'missing.db'), /^there is no graph file at .*missing\.db$/],
      [dir, /^there is no graph file at /],
      [text, /notes\.db cannot be read as a SQLite graph: file is not a database$/],
      [other, /other\.db is a SQLite file but not a mecha graph$/],
      [newer, /has graph schema version 99, and this build knows only up to \d+/],
    ];
    for (const [from, message] of refusals) {
      const refused = snapshotGraphFile(from, copy);
      await expect(refused).rejects.toSatisfy(GraphInputError.isInstance);
      await expect(refused).rejects.toThrow(message);
      expect(existsSync(copy)).toBe(false);
    }
    expect(readFileSync(text, 'utf8')).toBe('not a database');
    expect(bytes(other)).toBe(otherBefore);
    expect(readdirSync(dir).sort()).toEqual(['newer', 'notes.db', 'other.db']);
  });

  it('refuses a PostgreSQL URL without printing its password', async () => {
    const dir = folder();
    const refused = snapshotGraphFile(
      'postgres://mecha:s3cret@db.example/graph',
      join(dir, 'copy.db'),
    );
    await expect(refused).rejects.toSatisfy(GraphInputError.isInstance);
    await expect(refused).rejects.toThrow(
      'postgres://mecha:***@db.example/graph is a PostgreSQL database: a snapshot copies a SQLite graph file',
    );
    await expect(refused).rejects.not.toThrow('s3cret');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('never writes over an existing file', async () => {
    const dir = folder();
    const path = await graphFile(dir);
    const copy = join(dir, 'copy.db');
    writeFileSync(copy, 'keep me');
    await expect(snapshotGraphFile(path, copy)).rejects.toThrow(
      'copy.db already exists: a snapshot is written only to a new file',
    );
    expect(readFileSync(copy, 'utf8')).toBe('keep me');
  });

  it('leaves nothing but the copy beside it: the file it writes first is its own, and removed', async () => {
    const dir = folder();
    const path = await graphFile(dir);
    await snapshotGraphFile(path, join(dir, 'copy.db'));
    // Beside the graph's own files (a reader may add its -wal and -shm), only the copy.
    expect(readdirSync(dir).filter((name) => !name.startsWith('graph.db'))).toEqual(['copy.db']);
  });
});
