import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportUsage, importsIn } from '../../../scripts/export-usage.mjs';

const names = (map: Map<string, Set<string>>) =>
  Object.fromEntries([...map].map(([specifier, set]) => [specifier, [...set].sort()]));

describe('importsIn', () => {
  it('reads named, renamed, type, re-exported and namespace imports of @mecha packages only', () => {
    const code = [
      "import { a, b as c } from '@mecha/p';",
      "import type { T } from '@mecha/p/sub';",
      "import * as ns from '@mecha/q';",
      "import { x } from 'zod';",
      "export { r } from '@mecha/r';",
      'ns.one(); const t: ns.Two = 1;',
    ].join('\n');
    expect(names(importsIn(code))).toEqual({
      '@mecha/p': ['a', 'b'],
      '@mecha/p/sub': ['T'],
      '@mecha/q': ['Two', 'one'],
      '@mecha/r': ['r'],
    });
  });

  it('reads dynamic imports by what they are bound to, and counts every name otherwise', () => {
    const code = [
      "const load = () => import('@mecha/a');",
      'async function f() {',
      '  const { x, y: z } = await load();',
      "  const [{ p }, q] = await Promise.all([import('@mecha/b'), import('@mecha/c')]);",
      "  q.r; (await import('@mecha/d')).s;",
      "  return { m: () => import('@mecha/e') };",
      '}',
    ].join('\n');
    expect(names(importsIn(code))).toEqual({
      '@mecha/a': ['x', 'y'],
      '@mecha/b': ['p'],
      '@mecha/c': ['r'],
      '@mecha/d': ['s'],
      '@mecha/e': ['*'],
    });
  });
});

describe('exportUsage on a small repository', () => {
  const root = mkdtempSync(join(tmpdir(), 'export-usage-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'packages/p/package.json',
    JSON.stringify({ name: '@mecha/p', exports: { '.': { types: './dist/index.d.ts' } } }),
  );
  write('packages/p/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true } }));
  write(
    'packages/p/src/index.ts',
    'export const used = 1;\nexport const unused = 2;\nexport const inDocs = 3;\nexport type Shape = { a: number };\n',
  );
  write('packages/p/src/own.test.ts', "import { unused } from '@mecha/p';\nvoid unused;\n");
  write('apps/app/src/main.ts', "import { used } from '@mecha/p';\nvoid used;\n");
  write('apps/app/test/main.test.ts', "import type { Shape } from '@mecha/p';\nlet s: Shape;\n");
  write('docs/guide.md', "# Guide\n\n```ts\nimport { inDocs } from '@mecha/p';\n```\n");
  write('README.md', '# r\n');

  it('names where each export is used outside its package, and nothing for the unused one', () => {
    const [entry] = exportUsage({ root });
    expect(entry?.entry).toBe('@mecha/p');
    expect(entry?.names.map(({ name, places, testOnly }) => [name, places, testOnly])).toEqual([
      ['Shape', ['apps/app'], true],
      ['inDocs', ['docs/guide.md'], false],
      ['unused', [], false],
      ['used', ['apps/app'], false],
    ]);
  });
});
