import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAppraiser } from './appraiser.js';
import { appraiserStatusAt } from './appraiser-status-at.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('appraiserStatusAt', () => {
  it('reads a folder with no memory without creating anything, as a new memory would read', () => {
    const home = mkdtempSync(join(tmpdir(), 'mecha-appraiser-at-'));
    made.push(home);
    const directory = join(home, 'appraiser');
    const status = appraiserStatusAt(directory);
    expect(status.memory).toBe('absent');
    expect(existsSync(directory)).toBe(false);
    expect(readdirSync(home)).toEqual([]);
    const fresh = openAppraiser({ directory });
    try {
      const { memory: _memory, ...rest } = status;
      expect(rest).toEqual(fresh.status());
    } finally {
      fresh.close();
    }
    expect(appraiserStatusAt(directory).memory).toBe('present');
  });
});
