import { spawn, spawnSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { withLock } from './advisory-lock.js';

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('withLock', () => {
  it('lets holders in one process take turns, never together', async () => {
    const lock = join(tempDir(), '.lock');
    let inside = 0;
    let overlap = false;
    const work = async () => {
      inside += 1;
      if (inside > 1) overlap = true;
      await sleep(2);
      inside -= 1;
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => withLock(lock, work)));
    expect(results.every(E.isRight)).toBe(true);
    expect(overlap).toBe(false);
    expect(existsSync(lock)).toBe(false);
  });

  it('releases the lock when the work throws', async () => {
    const lock = join(tempDir(), '.lock');
    await expect(
      withLock(lock, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
    expect(E.isRight(await withLock(lock, () => 1))).toBe(true);
  });

  it('breaks a lock left by a process that died', async () => {
    const lock = join(tempDir(), '.lock');
    writeFileSync(lock, `${deadPid()}\n${hostname()}\nstale\n`);
    expect(await withLock(lock, () => 'mine', { timeoutMs: 2000 })).toEqual(E.right('mine'));
  });

  it('breaks a lock left by an earlier process that had this same pid', async () => {
    const lock = join(tempDir(), '.lock');
    writeFileSync(lock, `${process.pid}\n${hostname()}\nearlier\n`);
    expect(await withLock(lock, () => 'mine', { timeoutMs: 2000 })).toEqual(E.right('mine'));
  });

  it('waits for a live holder, then gives up with lock_timeout as a value', async () => {
    const lock = join(tempDir(), '.lock');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(lock, `${holder.pid}\n${hostname()}\nlive\n`);
      const result = await withLock(lock, () => 'mine', { timeoutMs: 150 });
      expect(E.isLeft(result) && result.left.kind).toBe('lock_timeout');
      expect(existsSync(lock)).toBe(true);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('never breaks a lock held from another machine', async () => {
    const lock = join(tempDir(), '.lock');
    writeFileSync(lock, `${deadPid()}\nanother-machine\nremote\n`);
    const result = await withLock(lock, () => 'mine', { timeoutMs: 100 });
    expect(E.isLeft(result) && result.left.kind).toBe('lock_timeout');
  });

  it('leaves a fresh unreadable lock alone and breaks an old one', async () => {
    const lock = join(tempDir(), '.lock');
    writeFileSync(lock, '');
    const fresh = await withLock(lock, () => 'mine', { timeoutMs: 100 });
    expect(E.isLeft(fresh)).toBe(true);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(await withLock(lock, () => 'mine', { timeoutMs: 2000 })).toEqual(E.right('mine'));
  });

  it('refuses to take a lock again inside its own work instead of waiting forever', async () => {
    const lock = join(tempDir(), '.lock');
    const outer = await withLock(lock, () => withLock(lock, () => 'inner'));
    expect(E.isRight(outer) && E.isLeft(outer.right) && outer.right.left.kind).toBe('refused');
    const nested = await withLock(lock, () => withLock(`${lock}.other`, () => 'other'));
    expect(nested).toEqual(E.right(E.right('other')));
  });
});
