import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { type GenerateHomeOptions, generateHome } from './generate-home.js';

/** One digest of every file of a home: its path, its length and its bytes, by path. */
function homeDigest(root: string): string {
  const paths: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else paths.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  const hash = createHash('sha256');
  for (const path of paths.sort()) {
    const bytes = readFileSync(join(root, path));
    hash.update(`${path}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Recorded from `generateHome` of @mecha/stores/testing (main at 3ac1380), before the generator
// moved here and was split by store: the move changed no byte of any home, nor the summary it
// returns. Every draw of the seed happens in the order it did, so a change to the order (or to
// a record) shows here as another digest.
const recorded: readonly {
  readonly options: Omit<GenerateHomeOptions, 'path'>;
  readonly files: string;
  readonly summary: string;
}[] = [
  {
    options: { seed: 'same', sessions: 150 },
    files: '8d61bc2a3736f6d8ae551a057b5c38c026b5a51e766d9db75cc7d246da3e0f65',
    summary: 'eff7780caf88a32320b7ca989d5aff186d167e0f73f7ddc115066ba80766df9c',
  },
  {
    options: { seed: 7, sessions: 1000, tornRate: 0.05 },
    files: '91ae7c7886508d2a2e061c5502817173e52ccdae5ccd397d3549d1cd5048f046',
    summary: '161152af04033c3fbf28d5742ffe79c455ab2e65b74593f0c7ebb2051de304bf',
  },
  {
    options: { seed: 'demo', sessions: 300, start: new Date('2026-10-01T00:00:00Z'), days: 60 },
    files: '3c0ed99e187e5a94f75c7ca6985633e81cfb3413f65e45b9133264c4465f9677',
    summary: 'c5a45bbf1c1e90664ae72ac4656a3e3dd7dd50b8f0ec56e03f861de840d19029',
  },
  {
    options: { seed: 'empty', sessions: 0 },
    files: 'c135759e0502f652500ef66f408afb32cead25c854ca2cf21cfe4e5d7eec6105',
    summary: '2085ecab18630b3ae67197e71adeddb8c7e5f35f7945bbb5fdd64b4825f30258',
  },
];

describe('generateHome, moved out of the stores', () => {
  it.each(recorded)('writes the home the stores generator wrote ($options.seed)', (expected) => {
    const made = generateHome({ path: join(tempDir(), 'home'), ...expected.options });
    expect(homeDigest(made.path)).toBe(expected.files);
    expect(sha256(JSON.stringify({ ...made, path: undefined }))).toBe(expected.summary);
  });
});
