// The release rehearsal's pure rules: `node --test scripts/` (npm run test:scripts).
// The rehearsal itself needs a registry and minutes; it runs as `npm run release:rehearse`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  integrityOf,
  manifestTargets,
  parseArguments,
  satisfiesSimpleRange,
  tarballFindings,
} from './release-rehearsal.mjs';
import { publishTarballs } from './release-rehearsal-publish.mjs';

const version = fc
  .tuple(fc.nat(20), fc.nat(20), fc.nat(20))
  .map(([major, minor, patch]) => `${major}.${minor}.${patch}`);

test('a version satisfies itself, ^itself and ~itself', () => {
  fc.assert(
    fc.property(version, (v) => {
      assert.ok(satisfiesSimpleRange(v, v));
      assert.ok(satisfiesSimpleRange(v, `^${v}`));
      assert.ok(satisfiesSimpleRange(v, `~${v}`));
    }),
  );
});

test('a lower version never satisfies a range on a higher one', () => {
  fc.assert(
    fc.property(version, version, (a, b) => {
      const [low, high] = [a, b].sort((x, y) => {
        const p = (s) => s.split('.').map(Number);
        const [xa, xb, xc] = p(x);
        const [ya, yb, yc] = p(y);
        return xa - ya || xb - yb || xc - yc;
      });
      fc.pre(low !== high);
      for (const operator of ['', '^', '~'])
        assert.equal(satisfiesSimpleRange(low, `${operator}${high}`), false);
    }),
  );
});

test('caret and tilde follow npm on 0.x and 1.x', () => {
  assert.ok(satisfiesSimpleRange('1.4.0', '^1.2.3'));
  assert.ok(!satisfiesSimpleRange('2.0.0', '^1.2.3'));
  assert.ok(satisfiesSimpleRange('0.2.9', '^0.2.3'));
  assert.ok(!satisfiesSimpleRange('0.3.0', '^0.2.3'));
  assert.ok(!satisfiesSimpleRange('0.0.4', '^0.0.3'));
  assert.ok(satisfiesSimpleRange('1.2.9', '~1.2.3'));
  assert.ok(!satisfiesSimpleRange('1.3.0', '~1.2.3'));
  assert.ok(!satisfiesSimpleRange('1.2.3', 'workspace:*'));
  assert.ok(!satisfiesSimpleRange('1.3.0-next.0', '^1.2.3'));
});

const clean = {
  files: [
    'package.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
    'dist/index.js',
    'dist/index.d.ts',
  ],
  manifest: {
    name: '@mecha/x',
    version: '1.2.0',
    license: 'MIT',
    repository: {
      type: 'git',
      url: 'git+https://github.com/o/r.git',
      directory: 'packages/x',
    },
    homepage: 'https://github.com/o/r/tree/main/packages/x#readme',
    bugs: { url: 'https://github.com/o/r/issues' },
    exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    dependencies: { '@mecha/y': '^1.0.0', zod: '^4.0.0' },
  },
  read: (file) => (file === 'CHANGELOG.md' ? '# @mecha/x\n\n## 1.2.0\n\n- a change\n' : ''),
  expectedVersion: '1.2.0',
  published: new Map([
    ['@mecha/x', '1.2.0'],
    ['@mecha/y', '1.1.0'],
  ]),
};

test('a clean tarball has no findings', () => {
  assert.deepEqual(tarballFindings(clean), []);
});

test('each defect of a tarball is named', () => {
  const cases = [
    [{ files: clean.files.filter((f) => f !== 'LICENSE') }, /no LICENSE/],
    [{ files: clean.files.filter((f) => f !== 'README.md') }, /no README/],
    [{ files: clean.files.filter((f) => f !== 'dist/index.d.ts') }, /dist\/index.d.ts is named/],
    [{ files: [...clean.files, 'dist/x.test.js'] }, /dist\/x.test.js should not ship/],
    [{ files: [...clean.files, 'src/index.ts'] }, /src\/index.ts ships/],
    [{ files: [...clean.files, 'dist/__fixtures__/a.js'] }, /should not ship/],
    [{ expectedVersion: '1.3.0' }, /version 1.2.0, expected 1.3.0/],
    [
      { manifest: { ...clean.manifest, dependencies: { '@mecha/y': 'workspace:*' } } },
      /'workspace:\*'/,
    ],
    [
      { manifest: { ...clean.manifest, dependencies: { '@mecha/y': '^2.0.0' } } },
      /does not satisfy/,
    ],
    [{ read: () => '# @mecha/x\n\n## 1.1.0\n' }, /newest entry is 1.1.0/],
    [{ files: clean.files.filter((f) => f !== 'CHANGELOG.md') }, /no CHANGELOG/],
    [{ manifest: { ...clean.manifest, repository: undefined } }, /no repository.url/],
    [
      { manifest: { ...clean.manifest, repository: { type: 'git', url: 'git+https://x/y.git' } } },
      /repository has no directory/,
    ],
    [{ manifest: { ...clean.manifest, homepage: undefined } }, /no homepage/],
    [{ manifest: { ...clean.manifest, bugs: undefined } }, /no bugs url/],
  ];
  for (const [change, expected] of cases) {
    const findings = tarballFindings({ ...clean, ...change });
    assert.ok(
      findings.some((line) => expected.test(line)),
      `${expected} in ${JSON.stringify(findings)}`,
    );
  }
});

test('source is allowed where files names it, and maps must carry their sources', () => {
  const withSource = {
    ...clean,
    files: [...clean.files, 'src/grader.ts', 'dist/index.js.map'],
    manifest: { ...clean.manifest, files: ['dist', 'src', '!src/**/*.test.ts'] },
    read: (file) =>
      file === 'dist/index.js.map'
        ? JSON.stringify({
            sources: ['../src/grader.ts', '../src/other.ts'],
            sourcesContent: [null, 'x'],
          })
        : clean.read(file),
  };
  assert.deepEqual(tarballFindings(withSource), []);
  const missing = {
    ...withSource,
    read: (file) =>
      file === 'dist/index.js.map'
        ? JSON.stringify({ sources: ['../src/gone.ts', '../src/a.test.ts'], sourcesContent: [] })
        : clean.read(file),
  };
  const findings = tarballFindings(missing);
  assert.ok(findings.some((line) => /needs \.\.\/src\/gone\.ts/.test(line)));
  assert.ok(findings.some((line) => /carries a test source/.test(line)));
});

test('test files inside a data folder that files names ship; elsewhere they do not', () => {
  const bank = {
    ...clean,
    files: [...clean.files, 'bank/cases/a/clamp.test.ts'],
    manifest: { ...clean.manifest, files: ['dist', 'bank', 'README.md'] },
  };
  assert.deepEqual(tarballFindings(bank), []);
  const stray = { ...bank, files: [...bank.files, 'dist/clamp.test.js'] };
  assert.deepEqual(tarballFindings(stray), ['dist/clamp.test.js should not ship']);
});

test('manifest targets cover exports conditions, subpaths and bins', () => {
  assert.deepEqual(
    manifestTargets({
      exports: {
        '.': { types: './dist/index.d.ts', import: './dist/index.js' },
        './testing': { import: './dist/testing.js' },
        './*': './dist/*.js',
        './package.json': './package.json',
      },
      bin: { mecha: './dist/bin.js' },
    }),
    ['dist/bin.js', 'dist/index.d.ts', 'dist/index.js', 'dist/testing.js', 'package.json'],
  );
});

test('arguments: flags, --out DIR, and usage errors', () => {
  assert.deepEqual(parseArguments(['--json', '--in-place', '--out', 'x']).options, {
    json: true,
    keep: false,
    inPlace: true,
    out: 'x',
  });
  assert.match(parseArguments(['--out']).error, /--out needs a folder/);
  assert.match(parseArguments(['--bogus']).error, /unknown argument/);
});

test('publishing refuses a tarball that is not the one rehearsed, before any npm call', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-release-test-'));
  try {
    writeFileSync(join(dir, 'a.tgz'), 'rehearsed bytes');
    const integrity = integrityOf(join(dir, 'a.tgz'));
    writeFileSync(
      join(dir, 'tarballs.json'),
      JSON.stringify({
        packages: [{ name: '@mecha/a', version: '1.0.0', file: 'a.tgz', integrity }],
      }),
    );
    writeFileSync(join(dir, 'a.tgz'), 'other bytes');
    const result = publishTarballs({ dir, registry: 'http://127.0.0.1:9/', env: {} });
    assert.equal(result.ok, false);
    assert.deepEqual(result.published, []);
    assert.match(result.failures[0], /not the tarball the rehearsal checked/);
    assert.equal(JSON.parse(readFileSync(join(dir, 'tarballs.json'), 'utf8')).packages.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
