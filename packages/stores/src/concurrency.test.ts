import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleChild, exited, removeBundle, spawnChild } from './__fixtures__/spawn-child.js';
import { tempDir } from './__fixtures__/temp-dir.js';
import { openHome } from './open-home.js';

describe('writers in separate processes', () => {
  beforeAll(() => bundleChild(), 60_000);
  afterAll(() => removeBundle());

  it('four processes appending to one store lose nothing and duplicate nothing', async () => {
    const path = tempDir();
    const perChild = 100;
    const children = await Promise.all(
      ['a', 'b', 'c', 'd'].map((tag) => spawnChild(['append', path, tag, String(perChild)])),
    );
    await Promise.all(children.map(exited));
    const read = await openHome(path).requests.read();
    expect(read.state).toBe('read');
    const ids = read.state === 'read' ? read.records.map((record) => record.request_id) : [];
    expect(ids).toHaveLength(4 * perChild);
    expect(new Set(ids).size).toBe(4 * perChild);
    for (const tag of ['a', 'b', 'c', 'd']) {
      // Each process's own records keep the order it wrote them in.
      const own = ids.filter((id) => id.startsWith(`${tag}-`));
      expect(own).toEqual(Array.from({ length: perChild }, (_, seq) => `${tag}-${seq}`));
    }
  }, 60_000);

  it('four processes distilling the same 100 sessions push each exactly once', async () => {
    const path = tempDir();
    const pushes = join(tempDir(), 'pushes.log');
    const children = await Promise.all(
      ['0', '1', '2', '3'].map((tag) => spawnChild(['ledger', path, tag, pushes, '100'])),
    );
    await Promise.all(children.map(exited));
    const pushed = readFileSync(pushes, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[0]);
    expect(pushed).toHaveLength(100);
    expect(new Set(pushed).size).toBe(100);
    const ledger = await openHome(path).learning.distilled.read();
    expect(ledger.state).toBe('read');
    const marked = ledger.state === 'read' ? ledger.records.map((record) => record.session_id) : [];
    expect(marked.sort()).toEqual([...new Set(pushed)].sort());
  }, 60_000);
});
