import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { layerBlock, layerGraph, withBlock } from '../../../scripts/layers.mjs';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

describe('the layers of this repository', () => {
  it('has no upward import, undeclared import or relative path into another package', () => {
    expect(layerGraph().violations).toEqual([]);
  });

  it('docs/ARCHITECTURE.md shows the layers the imports have (update: node scripts/layers.mjs --write)', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'ARCHITECTURE.md'), 'utf8');
    expect(withBlock(doc, layerBlock())).toBe(doc);
  });
});

describe('the layer check on a small workspace', () => {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const table = [
    { name: 'low', packages: ['@mecha/low'], what: '' },
    { name: 'high', packages: ['@mecha/high'], what: '' },
    { name: 'app', packages: ['@mecha/app'], what: '' },
  ];
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const manifest = (name: string, dependencies: string[], devDependencies: string[] = []) =>
    JSON.stringify({
      name,
      dependencies: Object.fromEntries(dependencies.map((d) => [d, 'workspace:*'])),
      devDependencies: Object.fromEntries(devDependencies.map((d) => [d, 'workspace:*'])),
    });
  write('packages/low/package.json', manifest('@mecha/low', [], ['@mecha/high', '@mecha/app']));
  write('packages/low/src/index.ts', 'export const low = 1;\n');
  write('packages/high/package.json', manifest('@mecha/high', ['@mecha/low']));
  write(
    'packages/high/src/index.ts',
    "import { low } from '@mecha/low';\nexport const high = low;\n",
  );
  write('apps/app/package.json', manifest('@mecha/app', ['@mecha/high']));
  write('apps/app/src/main.ts', "import { high } from '@mecha/high';\nconsole.log(high);\n");
  const check = (exceptions = new Map<string, string>()) =>
    layerGraph({ root, table, exceptions }).violations;

  it('passes imports that point down, and draws the edges', () => {
    expect(check()).toEqual([]);
    const { edges } = layerGraph({ root, table, exceptions: new Map() });
    expect(edges.map((edge) => `${edge.from}→${edge.to}`)).toEqual([
      '@mecha/app→@mecha/high',
      '@mecha/high→@mecha/low',
    ]);
  });

  it('fails on an upward import in code, but lets a test use a higher package', () => {
    write('packages/low/src/up.ts', "export { high } from '@mecha/high';\n");
    expect(check()).toEqual([
      "packages/low/src/up.ts imports @mecha/high (layer 'high'), not below @mecha/low (layer 'low')",
    ]);
    rmSync(join(root, 'packages/low/src/up.ts'));
    write('packages/low/src/up.test.ts', "import { high } from '@mecha/high';\nvoid high;\n");
    expect(check()).toEqual([]);
  });

  it('fails on a package test that imports an app', () => {
    write('packages/low/test/app.test.ts', "const app = await import('@mecha/app');\nvoid app;\n");
    expect(check()).toEqual([
      'packages/low/test/app.test.ts (a test of @mecha/low) imports the app @mecha/app',
    ]);
    rmSync(join(root, 'packages/low/test'), { recursive: true });
  });

  it('fails on an undeclared import', () => {
    write('apps/app/src/low.ts', "import { low } from '@mecha/low';\nvoid low;\n");
    expect(check()).toEqual([
      'apps/app/src/low.ts imports @mecha/low, which @mecha/app does not declare',
    ]);
    rmSync(join(root, 'apps/app/src/low.ts'));
  });

  it('fails on a relative path into another package, unless listed; and on a stale listing', () => {
    write('packages/high/src/reach.ts', "export { low } from '../../low/src/index.js';\n");
    expect(check()).toEqual([
      'packages/high/src/reach.ts reaches into packages/low by a relative path (../../low/src/index.js)',
    ]);
    expect(check(new Map([['packages/high/src/reach.ts', 'a reason']]))).toEqual([]);
    rmSync(join(root, 'packages/high/src/reach.ts'));
    expect(check(new Map([['packages/high/src/reach.ts', 'a reason']]))).toEqual([
      'packages/high/src/reach.ts no longer reaches into another package (a reason): drop its exception',
    ]);
  });

  it('fails on a package in no layer', () => {
    write('packages/stray/package.json', manifest('@mecha/stray', []));
    expect(check()).toEqual(['@mecha/stray is in no layer (scripts/layers.mjs)']);
    rmSync(join(root, 'packages/stray'), { recursive: true });
  });
});
