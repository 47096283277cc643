import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  apiReports,
  entryPoints,
  entryReport,
  undocumentedExports,
} from '../../../scripts/api-report.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// API Extractor reads the built declarations (dist/*.d.ts); turbo builds before it tests.
describe('the API reports of @mecha/appraisal-core', () => {
  const reports = apiReports(packageDir);

  it.each(reports)(
    'the report of $subpath matches the checked-in one (update: node scripts/api-report.mjs packages/appraisal-core --write)',
    ({ text, current }) => {
      // Line by line, so a failure prints the lines that differ.
      expect(text.split('\n')).toEqual(current.split('\n'));
    },
  );

  it('documents every export', () => {
    expect(reports.flatMap(({ text }) => undocumentedExports(text))).toEqual([]);
  });
});

describe('the API report of a small built package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: '@scope/tiny',
      version: '0.0.0',
      exports: { '.': { types: './dist/index.d.ts' }, './extra': { types: './dist/extra.d.ts' } },
    }),
  );
  writeFileSync(join(dir, 'dist', 'extra.d.ts'), '/** One. */\nexport declare const one = 1;\n');
  const reportOf = (declarations: string) => {
    writeFileSync(join(dir, 'dist', 'index.d.ts'), declarations);
    const [main] = entryPoints(dir);
    if (main === undefined) throw new Error('no main entry');
    return entryReport(dir, main).text;
  };
  const base = [
    '/** Adds. */ export declare function add(a: number, b: number): number;',
    '/** A point. */ export interface Point { readonly x: number; y?: string }',
  ].join('\n');

  it('finds every entry point and where its report is kept', () => {
    expect(entryPoints(dir).map(({ subpath, report }) => [subpath, report])).toEqual([
      ['.', join(dir, 'api', 'tiny.api.md')],
      ['./extra', join(dir, 'api', 'tiny-extra.api.md')],
    ]);
  });

  it('changes when an export is added, removed or retyped, and names undocumented ones', () => {
    const before = reportOf(base);
    expect(before).toContain('export function add(a: number, b: number): number;');
    expect(before).toContain('readonly x: number;');
    expect(undocumentedExports(before)).toEqual([]);

    const added = reportOf(`${base}\nexport declare const extra = 1;`);
    expect(added).toContain('extra');
    expect(undocumentedExports(added)).toEqual(['extra']);

    const removed = reportOf(base.split('\n')[0] as string);
    expect(removed).not.toContain('Point');

    const retyped = reportOf(base.replace('y?: string', 'y?: number'));
    expect(retyped).not.toBe(before);
  });
});
