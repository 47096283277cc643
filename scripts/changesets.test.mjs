// The pending changesets are ones `changeset version` accepts: every package they name exists in
// the workspace (an empty front matter, a change that releases nothing, is allowed), and none
// mixes a package the config ignores with one it does not (changesets refuses such a file, and
// the release rehearsal stopped on one). Run by `npm run test:scripts`.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = join(root, '.changeset');
const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));
const ignored = new Set(config.ignore ?? []);

function workspacePackages() {
  const names = new Set();
  for (const group of ['packages', 'apps', 'tooling']) {
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      try {
        names.add(
          JSON.parse(readFileSync(join(root, group, entry.name, 'package.json'), 'utf8')).name,
        );
      } catch {
        // a folder without a package.json is no package
      }
    }
  }
  return names;
}

/** The packages a changeset's front matter names. */
export function namedPackages(text) {
  const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  return [...front.matchAll(/^\s*["']?(@?[^"':\s]+)["']?\s*:\s*(?:major|minor|patch)\s*$/gm)].map(
    (match) => match[1],
  );
}

test('a front matter names its packages', () => {
  assert.deepEqual(namedPackages('---\n"@mecha/a": minor\n"@mecha/b": patch\n---\n\nText.\n'), [
    '@mecha/a',
    '@mecha/b',
  ]);
});

test('every pending changeset names real packages and never mixes ignored with released ones', () => {
  const packages = workspacePackages();
  const files = readdirSync(folder).filter((name) => name.endsWith('.md') && name !== 'README.md');
  for (const file of files) {
    const named = namedPackages(readFileSync(join(folder, file), 'utf8'));
    for (const name of named)
      assert.ok(packages.has(name), `${file} names ${name}, which is no workspace package`);
    const mixed =
      named.some((name) => ignored.has(name)) && named.some((name) => !ignored.has(name));
    assert.ok(
      !mixed,
      `${file} mixes ignored packages (${[...ignored].join(', ')}) with released ones: changeset version refuses it`,
    );
  }
});
