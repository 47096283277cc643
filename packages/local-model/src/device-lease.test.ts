import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceLeaseDirectory, openDeviceLease } from './device-lease.js';
import { createDeviceScheduler } from './device-scheduler.js';
import { createScriptedModel } from './scripted-model.js';

const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function leaseDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-device-lease-'));
  dirs.push(dir);
  return join(dir, 'device');
}

/** Another process taking the lease; resolves its `got` line once it holds the device. */
function other(directory: string, priority: string, mode: 'release' | 'keep') {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./__fixtures__/lease-child.mjs', import.meta.url)),
      directory,
      priority,
      mode,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const got = new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, got, exited };
}

describe('the machine-wide device lease', () => {
  it('names where it lives', () => {
    expect(deviceLeaseDirectory('/h', { MECHA_DEVICE_DIR: '/d' })).toBe('/d');
    expect(deviceLeaseDirectory('/h', { XDG_RUNTIME_DIR: '/run/user/1' })).toBe(
      '/run/user/1/mecha',
    );
    expect(deviceLeaseDirectory('/h', {})).toBe('/h/device');
  });

  it('a foreground request from another process pre-empts background generation at the next token', async () => {
    const directory = leaseDir();
    // A reply of 100,000 tokens: it never ends by itself within the test.
    const model = createScriptedModel(['x'.repeat(400_000)], { msPerToken: 2 });
    const scheduler = createDeviceScheduler(model, { lease: openDeviceLease({ directory }) });
    const background = scheduler.complete({ prompt: 'bg', maxTokens: 200_000 }, 'background');
    while (model.emittedTokens < 1) await new Promise((resolve) => setTimeout(resolve, 1));
    const lease = openDeviceLease({ directory });
    expect(lease.holder()).toEqual({ pid: process.pid, priority: 'background' });
    const foreground = other(directory, 'foreground', 'release');
    const result = await background;
    expect(result).toMatchObject({ stopReason: 'aborted', preempted: true });
    expect(await foreground.got).toBe(
      `got ${JSON.stringify({ pid: foreground.child.pid, priority: 'foreground' })}`,
    );
    expect(await foreground.exited).toBe(0);
    // Given back, and its marker gone.
    expect(lease.holder()).toBeUndefined();
    expect(readdirSync(directory).filter((name) => name.startsWith('foreground.'))).toEqual([]);
    await scheduler.dispose();
  });

  it('background work waits while another process holds the device for the foreground', async () => {
    const directory = leaseDir();
    const holder = other(directory, 'foreground', 'keep');
    await holder.got;
    const lease = openDeviceLease({ directory });
    expect(lease.foregroundWanted()).toBe(true);
    const controller = new AbortController();
    const waiting = lease.acquire('background', controller.signal);
    // It cannot be had while the holder lives: cancel the wait and it answers undefined.
    controller.abort();
    expect(await waiting).toBeUndefined();
    // A SIGKILL leaves the holder file and the marker behind: both are ignored and taken over.
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(existsSync(join(directory, 'holder'))).toBe(true);
    expect(lease.foregroundWanted()).toBe(false);
    const release = await lease.acquire('background');
    expect(lease.holder()).toEqual({ pid: process.pid, priority: 'background' });
    release?.();
    expect(lease.holder()).toBeUndefined();
  });
});
