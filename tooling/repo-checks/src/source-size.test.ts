import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  functionSizes,
  maxFileLines,
  maxFunctionLines,
  sourceSizes,
} from '../../../scripts/source-size.mjs';

describe('the size of the source under packages/ and apps/', () => {
  it(`has no file over ${maxFileLines} lines but the allowed tables, and no function over ${maxFunctionLines} lines (see scripts/source-size.mjs)`, () => {
    expect(sourceSizes().violations).toEqual([]);
  });
});

// A body of `n` lines in all, from the line that opens it to the line that closes it.
const statements = (n: number) =>
  Array.from({ length: n - 2 }, (_, i) => `  void ${i};`).join('\n');

describe('functionSizes', () => {
  it('counts declarations, expressions, arrows, methods, accessors and constructors, by name', () => {
    const text = [
      `export function declared() {\n${statements(121)}\n}`,
      `const arrow = () => {\n${statements(5)}\n};`,
      `const expressed = function () {\n${statements(3)}\n};`,
      `class Box {\n  constructor() {\n${statements(4)}\n  }\n  method() {\n${statements(6)}\n  }\n  get size() {\n    return 1;\n  }\n}`,
      `const table = { row: () => 1, 'two words'(x: number) {\n    return x;\n  } };`,
      `[1].map((x) => {\n  return x;\n});`,
    ].join('\n');
    const sizes = functionSizes('a.ts', text).map((f) => `${f.name}@${f.line}:${f.lines}`);
    expect(sizes).toEqual([
      'declared@1:121',
      'arrow@122:5',
      'expressed@127:3',
      'Box.constructor@131:4',
      'Box.method@135:6',
      'Box.get size@141:3',
      'row@145:1',
      'two words@145:3',
      '(anonymous function at line 148)@148:3',
    ]);
  });

  it('reads JavaScript and TSX too', () => {
    expect(functionSizes('a.mjs', 'export const f = async (a) => {\n  await a;\n};\n')).toEqual([
      { name: 'f', line: 1, lines: 3 },
    ]);
    expect(functionSizes('a.tsx', 'const C = () => <div>{1}</div>;\n')).toEqual([
      { name: 'C', line: 1, lines: 1 },
    ]);
  });
});

describe('the size check on a small workspace', () => {
  const root = mkdtempSync(join(tmpdir(), 'source-size-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join('');
  const fn = (name: string, n: number) => `export function ${name}() {\n${statements(n)}\n}\n`;
  const check = (files = new Map<string, string>(), functions = new Map<string, string>()) =>
    sourceSizes({ root, files, functions }).violations;

  it('passes a file of exactly the limit and a function of exactly the limit', () => {
    write('packages/p/src/at-limit.ts', lines(maxFileLines));
    write('apps/a/src/f.ts', fn('atLimit', maxFunctionLines));
    expect(check()).toEqual([]);
  });

  it('fails on a file one line over, in packages/ and in apps/, and on a script', () => {
    write('packages/p/src/over.ts', lines(maxFileLines + 1));
    write('apps/a/scripts/over.mjs', lines(maxFileLines + 2));
    expect(check()).toEqual([
      `apps/a/scripts/over.mjs has ${maxFileLines + 2} lines (at most ${maxFileLines})`,
      `packages/p/src/over.ts has ${maxFileLines + 1} lines (at most ${maxFileLines})`,
    ]);
    rmSync(join(root, 'packages/p/src/over.ts'));
    rmSync(join(root, 'apps/a/scripts/over.mjs'));
  });

  it('fails on a function one line over, arrow or method alike', () => {
    write('packages/p/src/long.ts', fn('long', maxFunctionLines + 1));
    write(
      'packages/p/src/arrow.ts',
      `export const arrow = () => {\n${statements(maxFunctionLines + 1)}\n};\n`,
    );
    write(
      'packages/p/src/method.ts',
      `export class K {\n  m() {\n${statements(maxFunctionLines + 1)}\n  }\n}\n`,
    );
    expect(check()).toEqual([
      `packages/p/src/arrow.ts:1 arrow has ${maxFunctionLines + 1} lines (at most ${maxFunctionLines})`,
      `packages/p/src/long.ts:1 long has ${maxFunctionLines + 1} lines (at most ${maxFunctionLines})`,
      `packages/p/src/method.ts:2 K.m has ${maxFunctionLines + 1} lines (at most ${maxFunctionLines})`,
    ]);
    for (const f of ['long', 'arrow', 'method']) rmSync(join(root, `packages/p/src/${f}.ts`));
  });

  it('does not hold tests, fixtures, examples or declaration files to it, nor node_modules or dist', () => {
    const big = lines(maxFileLines + 50) + fn('huge', maxFunctionLines + 50);
    for (const path of [
      'packages/p/src/big.test.ts',
      'packages/p/src/index.test-d.ts',
      'packages/p/test/big.ts',
      'packages/p/src/__fixtures__/big.ts',
      'packages/p/examples/big.ts',
      'packages/p/src/big.d.ts',
      'packages/p/node_modules/x/big.js',
      'packages/p/dist/big.js',
    ]) {
      write(path, big);
    }
    expect(check()).toEqual([]);
  });

  it('lets an allowed table and an allowed function be over, and fails when they no longer are', () => {
    write('packages/p/src/table.ts', lines(maxFileLines + 10));
    write('packages/p/src/long.ts', fn('long', maxFunctionLines + 1));
    const files = new Map([['packages/p/src/table.ts', 'one row per kind']]);
    const functions = new Map([['packages/p/src/long.ts: long', 'owned elsewhere']]);
    expect(check(files, functions)).toEqual([]);
    write('packages/p/src/table.ts', lines(maxFileLines));
    write('packages/p/src/long.ts', fn('long', maxFunctionLines));
    expect(check(files, functions)).toEqual([
      `packages/p/src/table.ts is allowed over ${maxFileLines} lines but is not (remove it from allowedFiles)`,
      `packages/p/src/long.ts: long is allowed over ${maxFunctionLines} lines but is not (remove it from allowedFunctions)`,
    ]);
  });
});
