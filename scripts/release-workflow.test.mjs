// The release path as the workflows run it (`node --test scripts/`): CI rehearses on every push,
// and the release workflow publishes, with provenance, the very tarballs its rehearsal checked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { integrityOf } from './release-rehearsal.mjs';
import { publishTarballs } from './release-rehearsal-publish.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => readFileSync(join(root, path), 'utf8');

/** The lines of one job of a workflow file (from `  name:` to the next job at that indent). */
function job(text, name) {
  const lines = text.split('\n');
  const start = lines.indexOf(`  ${name}:`);
  assert.notEqual(start, -1, `job ${name}`);
  const end = lines.findIndex((line, index) => index > start && /^ {2}[\w-]+:/.test(line));
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

test('CI runs the scratch rehearsal as its own job, not inside npm test', () => {
  const ci = read('.github/workflows/ci.yml');
  assert.match(job(ci, 'release-rehearsal'), /^\s+- run: npm run release:rehearse\s*$/m);
  assert.doesNotMatch(job(ci, 'test'), /release:rehearse/);
  const scripts = JSON.parse(read('package.json')).scripts;
  assert.equal(scripts['release:rehearse'], 'node scripts/release-rehearsal.mjs');
});

test('the release workflow publishes, with provenance, the tarballs its rehearsal wrote', () => {
  const release = read('.github/workflows/release.yml');
  assert.match(release, /^\s+id-token: write\b/m, 'provenance needs the OIDC token');
  assert.match(release, /^\s+publish: npm run release:publish\s*$/m);
  const publish = JSON.parse(read('package.json')).scripts['release:publish'];
  const found =
    /^node scripts\/release-rehearsal\.mjs --in-place --out (\S+) && node scripts\/release-rehearsal-publish\.mjs (\S+)$/.exec(
      publish,
    );
  assert.ok(found, publish);
  assert.equal(found[1], found[2], 'the publish step reads the folder the rehearsal wrote');
  assert.match(release, new RegExp(`path: ${found[1]}/`), 'the published tarballs are kept');
});

/** A tarball holding package/package.json, and its tarballs.json, in a fresh folder. */
function rehearsed(manifest) {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-release-test-'));
  mkdirSync(join(dir, 'package'));
  writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify(manifest));
  assert.equal(spawnSync('tar', ['-czf', join(dir, 'a.tgz'), '-C', dir, 'package']).status, 0);
  rmSync(join(dir, 'package'), { recursive: true });
  writeFileSync(
    join(dir, 'tarballs.json'),
    JSON.stringify({
      packages: [
        {
          name: manifest.name,
          version: manifest.version,
          file: 'a.tgz',
          integrity: integrityOf(join(dir, 'a.tgz')),
        },
      ],
    }),
  );
  return dir;
}

/**
 * A stand-in for npm that records its arguments: a real provenance publish needs GitHub's OIDC
 * token and the npm registry, which cannot exist here. `npm view` answers "not published".
 */
function fakeNpm(dir) {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'npm'),
    `#!/bin/sh\necho "$@" >> ${JSON.stringify(join(dir, 'npm-calls'))}\n[ "$1" = view ] && exit 1\nexit 0\n`,
  );
  chmodSync(join(bin, 'npm'), 0o755);
  return { PATH: `${bin}:${process.env.PATH}` };
}

const manifest = {
  name: '@mecha/a',
  version: '1.0.0',
  repository: { type: 'git', url: 'git+https://github.com/o/r.git', directory: 'packages/a' },
};

test('each rehearsed tarball is published by its path, with --provenance', () => {
  const dir = rehearsed(manifest);
  try {
    const lines = [];
    const result = publishTarballs({
      dir,
      env: { ...fakeNpm(dir), GITHUB_REPOSITORY: 'o/r' },
      log: (line) => lines.push(line),
    });
    assert.deepEqual(result, {
      ok: true,
      published: ['@mecha/a@1.0.0'],
      skipped: [],
      failures: [],
    });
    const calls = readFileSync(join(dir, 'npm-calls'), 'utf8').trim().split('\n');
    assert.equal(calls[0], 'view @mecha/a@1.0.0 dist.integrity');
    assert.equal(
      calls[1],
      `publish ${join(dir, 'a.tgz')} --access public --tag latest --provenance`,
    );
    assert.deepEqual(lines, ['New tag: @mecha/a@1.0.0']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a repository.url naming another repository than the one publishing stops every publish', () => {
  for (const repository of [undefined, { url: 'git+https://github.com/someone/else.git' }]) {
    const dir = rehearsed({ ...manifest, repository });
    try {
      const result = publishTarballs({
        dir,
        env: { ...fakeNpm(dir), GITHUB_REPOSITORY: 'o/r' },
      });
      assert.equal(result.ok, false);
      assert.match(result.failures[0], /must name https:\/\/github.com\/o\/r for npm provenance/);
      assert.throws(() => readFileSync(join(dir, 'npm-calls')), /ENOENT/, 'npm was never called');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
