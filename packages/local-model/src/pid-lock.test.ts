import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockHolder, processAlive, releaseLock, takeLock } from './pid-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function lockPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-pid-lock-'));
  dirs.push(dir);
  return join(dir, 'work.lock');
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('pid lock files', () => {
  it('is taken once; a second taker is told who holds it', () => {
    const path = lockPath();
    expect(takeLock(path, 'first')).toEqual({ taken: true });
    expect(takeLock(path, 'second')).toEqual({
      taken: false,
      holder: { pid: process.pid, note: 'first' },
    });
    releaseLock(path);
    expect(lockHolder(path)).toBeUndefined();
    expect(takeLock(path, 'again')).toEqual({ taken: true });
    releaseLock(path);
  });

  it('takes over a file left by a process that died', () => {
    const path = lockPath();
    const pid = deadPid();
    expect(processAlive(pid)).toBe(false);
    writeFileSync(path, `${pid}\nkilled\n`);
    expect(lockHolder(path)).toBeUndefined();
    expect(takeLock(path, 'mine')).toEqual({ taken: true });
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}\nmine\n`);
    releaseLock(path);
  });

  it('never releases a file another process holds', () => {
    const path = lockPath();
    writeFileSync(path, '1\ninit\n');
    releaseLock(path);
    expect(readFileSync(path, 'utf8')).toBe('1\ninit\n');
    expect(processAlive(0)).toBe(false);
    expect(processAlive(-5)).toBe(false);
  });
});
