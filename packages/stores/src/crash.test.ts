import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bundleChild,
  exited,
  removeBundle,
  saying,
  spawnChild,
} from './__fixtures__/spawn-child.js';
import { tempDir } from './__fixtures__/temp-dir.js';
import { withLock } from './advisory-lock.js';
import { maxRecordBytes } from './append-lines.js';
import { homeLayout } from './home-layout.js';
import { type MechaHome, openHome } from './open-home.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Crashes {
  /** How many writers to kill in all. */
  readonly kills: number;
  /** How many are alive at once: they contend for the lock, so a killed holder's lock is stale. */
  readonly alive: number;
  /** The longest wait between a writer's first append and its kill. */
  readonly maxDelayMs: number;
  readonly mode: 'crash' | 'crash-big' | 'crash-multibyte';
  /**
   * Damage a crash can leave that a kill cannot be timed to hit: written under the store's lock
   * before every fourth writer starts, for that writer (or a later one) to mend.
   */
  readonly inject?: (home: MechaHome, round: number) => Promise<void>;
  /** Reads the store's ids (request or draft ids), with the read's skipped lines. */
  readonly read: (
    home: MechaHome,
  ) => Promise<{ state: string; ids: string[]; skipped: { line: number; reason: string }[] }>;
}

/**
 * Kills writer processes at random points while they append, checking after every kill that
 * the store reads back with at most one damaged line, the last, flagged as torn.
 */
async function crashWriters(path: string, crashes: Crashes): Promise<{ torn: number }> {
  const home = openHome(path);
  let started = 0;
  let torn = 0;
  const runOne = async (): Promise<void> => {
    const round = started;
    if (crashes.inject !== undefined && round % 4 === 3) {
      await crashes.inject(home, round);
      const read = await crashes.read(home);
      expect(read.skipped.map((line) => line.reason)).toEqual([
        expect.stringMatching(/^torn final line/),
      ]);
    }
    const child = await spawnChild([crashes.mode, path, `k${started++}`]);
    const done = exited(child);
    // Half the kills come any time after the writer started (while it waits for the lock, say),
    // half once it has written, in the middle of its appends.
    await saying(child, crashes.mode === 'crash' && Math.random() < 0.5 ? 'ready' : 'wrote');
    await sleep(Math.random() * crashes.maxDelayMs);
    child.kill('SIGKILL');
    // The whole exit, so a writer that stopped on its own shows its code (one that failed
    // rejects `done` with its stderr).
    expect(await done).toEqual({ code: null, signal: 'SIGKILL' });
    const read = await crashes.read(home);
    expect(read.state).not.toBe('unreadable');
    if (read.skipped.length > 0) {
      expect(read.skipped).toHaveLength(1);
      expect(read.skipped[0]?.reason).toMatch(/^torn final line/);
      torn += 1;
    }
  };
  await Promise.all(
    Array.from({ length: crashes.alive }, async (_, lane) => {
      for (let round = lane; round < crashes.kills; round += crashes.alive) await runOne();
    }),
  );
  expect(started).toBe(crashes.kills);
  return { torn };
}

/** Each killed writer's ids must be an unbroken run from 0: nothing lost in the middle, nothing twice. */
function expectPrefixes(ids: readonly string[], atLeast: number): void {
  expect(new Set(ids).size).toBe(ids.length);
  const bySource = new Map<string, number[]>();
  for (const id of ids) {
    const cut = id.lastIndexOf('-');
    const source = id.slice(0, cut);
    const list = bySource.get(source) ?? [];
    list.push(Number(id.slice(cut + 1)));
    bySource.set(source, list);
  }
  for (const seqs of bySource.values()) {
    expect(seqs).toEqual(seqs.map((_, index) => index));
  }
  // Some writers are killed before their first append and leave nothing; most write.
  expect(bySource.size).toBeGreaterThanOrEqual(atLeast);
}

const staged = {
  v: 1 as const,
  type: 'staged' as const,
  at: '2026-09-26T00:00:00Z',
  draft_id: 'after-0',
  session_id: 's-1',
  tool: 'mail_send',
  taint: 'clean' as const,
};

async function readRequests(home: MechaHome) {
  const read = await home.requests.read();
  return {
    state: read.state,
    ids: read.state === 'unreadable' ? [] : read.records.map((record) => record.request_id),
    skipped: read.state === 'partial' ? [...read.skipped] : [],
  };
}

async function readDrafts(home: MechaHome) {
  const read = await home.outbox.read();
  return {
    state: read.state,
    ids: read.state === 'unreadable' ? [] : read.records.map((record) => record.draft_id),
    skipped: read.state === 'partial' ? [...read.skipped] : [],
  };
}

describe('writers killed mid-append', () => {
  beforeAll(() => bundleChild(), 60_000);
  afterAll(() => removeBundle());

  it('200 kills leave at most one torn final line, flagged, and later appends whole', async () => {
    const path = tempDir();
    await crashWriters(path, {
      kills: 200,
      alive: 3,
      maxDelayMs: 30,
      mode: 'crash',
      read: readRequests,
    });
    const home = openHome(path);
    const after = Array.from({ length: 10 }, (_, seq) => ({
      v: 1 as const,
      type: 'received' as const,
      at: '2026-09-26T00:00:00Z',
      request_id: `after-${seq}`,
    }));
    expect((await home.requests.append(after))._tag).toBe('Right');
    const read = await readRequests(home);
    expect(read.state).toBe('read');
    expect(read.ids.slice(-10)).toEqual(after.map((record) => record.request_id));
    expectPrefixes(read.ids, 90);
  }, 900_000); // a guard against a hang only: 200 child processes on a loaded machine take minutes

  it('kills during megabyte-long writes tear lines that the next writer mends', async () => {
    const path = tempDir();
    const { torn } = await crashWriters(path, {
      kills: 12,
      alive: 2,
      maxDelayMs: 40,
      mode: 'crash-big',
      read: readDrafts,
    });
    const home = openHome(path);
    expect((await home.outbox.append([{ ...staged, draft_id: 'after-0' }]))._tag).toBe('Right');
    const read = await readDrafts(home);
    expect(read.state).toBe('read');
    expect(read.ids.at(-1)).toBe('after-0');
    expectPrefixes(read.ids, 12);
    // Not asserted (a kill may miss every write), but reported: how often a kill tore a line.
    console.info(`torn final lines seen after 12 kills during 1 MB writes: ${torn}`);
  }, 900_000); // a guard against a hang only, as above: it took 179 s in a loaded CI run

  it('tails torn inside a multibyte character, or longer than the tail check, are mended too', async () => {
    const path = tempDir();
    const outboxFile = join(path, homeLayout.outbox);
    let injected = 0;
    // Alternately: a draft cut after the second byte of a "€", and an unterminated line longer
    // than any record may be (so never completed, only cut, and cut at its own start).
    const inject = async (_home: MechaHome, round: number) => {
      const tail =
        round % 8 === 3
          ? Buffer.concat([
              Buffer.from(`{"v":1,"type":"staged","draft_id":"torn-${round}","text":"€€`),
              Buffer.from([0xe2, 0x82]),
            ])
          : Buffer.from(
              `{"v":1,"type":"staged","text":"${'x'.repeat(maxRecordBytes + 70_000 + round)}`,
            );
      const locked = await withLock(join(path, 'outbox/.lock'), () => {
        if (existsSync(outboxFile)) appendFileSync(outboxFile, tail);
      });
      expect(locked._tag).toBe('Right');
      injected += 1;
    };
    const { torn } = await crashWriters(path, {
      kills: 16,
      // One writer at a time: a writer appending in a loop would starve the injection's lock.
      alive: 1,
      maxDelayMs: 40,
      mode: 'crash-multibyte',
      read: readDrafts,
      inject,
    });
    expect(injected).toBe(4);
    const home = openHome(path);
    expect((await home.outbox.append([{ ...staged, draft_id: 'after-0' }]))._tag).toBe('Right');
    const read = await readDrafts(home);
    expect(read.state).toBe('read');
    expect(read.ids.at(-1)).toBe('after-0');
    expectPrefixes(read.ids, 16);
    console.info(`torn final lines seen after 16 kills during multibyte writes: ${torn}`);
  }, 180_000);
});
