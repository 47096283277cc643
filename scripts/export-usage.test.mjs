// A module loaded whole (a namespace import, or a dynamic import bound to a variable) is read
// through that binding: `ns.name`, `const { name } = ns`, `ns['name']`, `.then((m) => m.name)`,
// or a loader function another file calls. export-usage.mjs counts each of those as a use of
// `name`, and a module that escapes (passed on, returned, stored) as a use of every name, so no
// name read through a loaded module is reported as unused. Run by `npm run test:scripts`.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { exportUsage, importsIn } from './export-usage.mjs';

const names = (code) =>
  Object.fromEntries([...importsIn(code)].map(([specifier, set]) => [specifier, [...set].sort()]));

test('names read off a dynamically loaded module bound to a variable count', () => {
  assert.deepEqual(
    names(
      [
        "const m = await import('@mecha/a');",
        'm.one();',
        'const { two, three: renamed } = m;',
        "m['four'];",
        'let later;',
        "later = await import('@mecha/b');",
        'later.five();',
        "import('@mecha/c').then((c) => c.six());",
        "const cast = (await import('@mecha/d')) as typeof import('@mecha/d');",
        'cast.seven;',
      ].join('\n'),
    ),
    {
      '@mecha/a': ['four', 'one', 'three', 'two'],
      '@mecha/b': ['five'],
      '@mecha/c': ['six'],
      '@mecha/d': ['seven'],
    },
  );
});

test('names read off a namespace import count, however they are read', () => {
  assert.deepEqual(
    names(
      [
        "import * as ns from '@mecha/a';",
        'ns.one();',
        'const { two } = ns;',
        "ns['three'];",
        'type T = ns.Four;',
      ].join('\n'),
    ),
    { '@mecha/a': ['Four', 'one', 'three', 'two'] },
  );
});

test('a loaded module that escapes its file counts as a use of every name', () => {
  assert.deepEqual(
    names(
      [
        "import * as ns from '@mecha/a';",
        'use(ns);',
        "const m = await import('@mecha/b');",
        'export const runtime = { m };',
        "const [x] = await Promise.all([import('@mecha/c')]);",
        'return x;',
      ].join('\n'),
    ),
    { '@mecha/a': ['*'], '@mecha/b': ['*'], '@mecha/c': ['*'] },
  );
});

const root = mkdtempSync(join(tmpdir(), 'export-usage-'));
after(() => rmSync(root, { recursive: true, force: true }));
const write = (path, text) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

test('a loader exported by one file and called in another, a package README and its examples count', () => {
  write(
    'packages/p/package.json',
    JSON.stringify({ name: '@mecha/p', exports: { '.': { types: './dist/index.d.ts' } } }),
  );
  write('packages/p/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true } }));
  write(
    'packages/p/src/index.ts',
    [
      'export const viaLoader = 1;',
      'export const viaNamespace = 2;',
      'export const viaDestructuring = 3;',
      'export const unused = 4;',
      'export const inReadme = 5;',
      'export const inExample = 6;',
    ].join('\n'),
  );
  // The package's own README and examples are written for a harness author: they count.
  write('packages/p/README.md', "```ts\nimport { inReadme } from '@mecha/p';\n```\n");
  write('packages/p/examples/harness.ts', "import { inExample } from '@mecha/p';\n");
  write('apps/app/src/shared.ts', "export const pModule = () => import('@mecha/p');\n");
  write(
    'apps/app/src/command.ts',
    [
      "import { pModule } from './shared.js';",
      'const { viaLoader } = await pModule();',
      "const p = await import('@mecha/p');",
      'p.viaNamespace;',
      'const { viaDestructuring } = p;',
    ].join('\n'),
  );
  write('README.md', '# r\n');
  const [entry] = exportUsage({ root });
  assert.deepEqual(
    entry.names.map(({ name, places }) => [name, places]),
    [
      ['inExample', ['packages/p/examples']],
      ['inReadme', ['packages/p/README.md']],
      ['unused', []],
      ['viaDestructuring', ['apps/app']],
      ['viaLoader', ['apps/app']],
      ['viaNamespace', ['apps/app']],
    ],
  );
});
