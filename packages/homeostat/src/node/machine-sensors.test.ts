import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  machineSensors,
  parseLoadAverage,
  parseMemAvailable,
  readLoadAverage,
  readMemAvailable,
} from './machine-sensors.js';

const folder = mkdtempSync(join(tmpdir(), 'mecha-homeostat-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const missing = join(folder, 'no-such-file');

describe('the /proc parsers', () => {
  it('reads the first field of /proc/loadavg', () => {
    expect(parseLoadAverage('0.42 0.31 0.20 1/234 5678\n')).toEqual({ state: 'read', value: 0.42 });
    expect(parseLoadAverage('')).toMatchObject({ state: 'unreadable' });
    expect(parseLoadAverage('nan 0 0')).toMatchObject({ state: 'unreadable' });
  });

  it('reads MemAvailable, and nothing else, from /proc/meminfo', () => {
    const meminfo =
      'MemTotal:       16303428 kB\nMemFree:         1203400 kB\nMemAvailable:    8123456 kB\n';
    expect(parseMemAvailable(meminfo)).toEqual({ state: 'read', value: 8_123_456 });
    expect(parseMemAvailable('MemTotal: 1 kB\nMemFree: 2 kB\n')).toMatchObject({
      state: 'unreadable',
    });
  });
});

describe('the machine sensors on this machine', () => {
  it('read the real /proc files', async () => {
    const load = await readLoadAverage();
    const memory = await readMemAvailable();
    expect(load.state === 'read' && load.value >= 0).toBe(true);
    expect(memory.state === 'read' && memory.value > 0).toBe(true);
  });

  it('read files written in the /proc format', async () => {
    const loadavg = join(folder, 'loadavg');
    const meminfo = join(folder, 'meminfo');
    writeFileSync(loadavg, '2.50 1.00 0.50 1/1 1\n');
    writeFileSync(meminfo, 'MemAvailable:  1024 kB\n');
    const sensors = machineSensors({ loadavgPath: loadavg, meminfoPath: meminfo });
    expect(await sensors.loadAverage1m()).toEqual({ state: 'read', value: 2.5 });
    expect(await sensors.memAvailableKb()).toEqual({ state: 'read', value: 1024 });
  });

  it('answer a missing file with its reason, never with a zero', async () => {
    const memory = await readMemAvailable(missing);
    expect(memory).toEqual({
      state: 'unreadable',
      reason: `${missing} could not be read (ENOENT)`,
    });
    const sensors = machineSensors({
      loadavgPath: missing,
      meminfoPath: missing,
      platform: 'win32',
    });
    expect(await sensors.loadAverage1m()).toMatchObject({ state: 'unreadable' });
    expect(await sensors.memAvailableKb()).toMatchObject({ state: 'unreadable' });
  });

  it('let os.loadavg stand in for a missing /proc/loadavg except on Windows', async () => {
    const sensors = machineSensors({ loadavgPath: missing, platform: 'darwin' });
    const load = await sensors.loadAverage1m();
    expect(load.state === 'read' && load.value >= 0).toBe(true);
  });
});
