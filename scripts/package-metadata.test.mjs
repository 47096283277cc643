// The registry metadata check (scripts/package-metadata.mjs): `node --test scripts/`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { publishablePackages, workspaceDirs } from './pack-check.mjs';
import {
  expectedMetadata,
  metadataFindings,
  repositoryWebUrl,
  writeMetadata,
} from './package-metadata.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

test('every public package of this repository names the repository, homepage and bugs', () => {
  assert.deepEqual(metadataFindings(root), []);
  for (const { manifest } of publishablePackages(root))
    assert.match(manifest.repository.url, /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
});

test('the public packages are found from pnpm-workspace.yaml, not listed', () => {
  const names = publishablePackages(root).map(({ manifest }) => manifest.name);
  assert.ok(names.includes('@mecha/cli') && names.includes('@mecha/stores'));
  for (const dir of workspaceDirs(root)) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    assert.equal(names.includes(manifest.name), manifest.private !== true, manifest.name);
  }
});

const ownerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}\/[a-z][a-z0-9.-]{0,12}$/);

test('each spelling of a GitHub repository gives the same web address', () => {
  fc.assert(
    fc.property(ownerName, (slug) => {
      const web = `https://github.com/${slug.replace(/\.git$/, '')}`;
      fc.pre(!slug.endsWith('.git') && !slug.endsWith('.'));
      for (const url of [`git+${web}.git`, web, `${web}.git`, `${web}/`, `github:${slug}`])
        assert.equal(repositoryWebUrl(url), web, url);
      assert.equal(
        expectedMetadata({ url: `git+${web}.git` }, 'packages/x').repository.url,
        `git+${web}.git`,
      );
    }),
  );
  for (const url of [undefined, '', 'https://gitlab.com/o/r', 'git@github.com:o/r.git'])
    assert.equal(repositoryWebUrl(url), null, String(url));
});

/** A tiny workspace: a root naming a repository, two public packages and a private one. */
function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-metadata-'));
  writeFileSync(
    join(dir, 'pnpm-workspace.yaml'),
    'packages:\n  - packages/*\n  - "tooling/*" # tools\n\ncatalog:\n  x: 1.0.0\n',
  );
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, repository: { url: 'git+https://github.com/o/r.git' } }),
  );
  const add = (folder, manifest) => {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, 'package.json'), JSON.stringify(manifest, null, 2));
  };
  add('packages/a', { name: '@o/a', version: '1.0.0', license: 'MIT', type: 'module' });
  add('tooling/new', { name: '@o/new', version: '0.0.0' });
  add('tooling/private', { name: '@o/private', private: true });
  mkdirSync(join(dir, 'elsewhere', 'b'), { recursive: true });
  writeFileSync(join(dir, 'elsewhere', 'b', 'package.json'), '{"name":"@o/b"}');
  return dir;
}

test('a public package without the fields is named, --write fixes it, and order is kept', () => {
  const dir = workspace();
  try {
    const findings = metadataFindings(dir);
    assert.equal(findings.length, 6, findings.join('\n'));
    assert.ok(
      findings.some((line) =>
        /^@o\/new \(tooling\/new\/package.json\): repository is missing/.test(line),
      ),
    );
    assert.ok(!findings.some((line) => /@o\/(private|b)/.test(line)));
    assert.deepEqual(writeMetadata(dir), ['@o/a', '@o/new']);
    assert.deepEqual(metadataFindings(dir), []);
    const written = JSON.parse(readFileSync(join(dir, 'packages/a/package.json'), 'utf8'));
    assert.deepEqual(Object.keys(written), [
      'name',
      'version',
      'license',
      'repository',
      'homepage',
      'bugs',
      'type',
    ]);
    assert.deepEqual(written.repository, {
      type: 'git',
      url: 'git+https://github.com/o/r.git',
      directory: 'packages/a',
    });
    assert.deepEqual(writeMetadata(dir), [], 'a second write changes nothing');
    // A wrong directory (a package moved) is a finding too.
    writeFileSync(
      join(dir, 'packages/a/package.json'),
      JSON.stringify({
        ...written,
        repository: { ...written.repository, directory: 'packages/old' },
      }),
    );
    assert.match(metadataFindings(dir).join('\n'), /@o\/a .*repository is .*packages\/old/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a root without a GitHub repository.url is one finding, and --write refuses', () => {
  const dir = workspace();
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
    assert.deepEqual(metadataFindings(dir).length, 1);
    assert.match(metadataFindings(dir)[0], /root\): repository.url must be/);
    assert.throws(() => writeMetadata(dir), /names no GitHub repository.url/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
