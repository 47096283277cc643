import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { apiReport, reportPath } from '../../../scripts/api-report.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the API report', () => {
  // One TypeScript program over the whole package: slow on a loaded machine, never flaky.
  const report = apiReport(packageDir);

  it('matches the checked-in api/appraisal-core.api.md (update: pnpm run api:update)', () => {
    expect(report.text).toBe(readFileSync(reportPath(packageDir), 'utf8'));
  });

  it('documents every export', () => {
    expect(report.undocumented).toEqual([]);
  });
});

describe('apiReport on a small package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'api-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@scope/tiny' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', lib: ['es2022'] } }),
  );
  const entry = join(dir, 'src', 'index.ts');
  const reportOf = (source: string) => {
    writeFileSync(entry, source);
    return apiReport(dir);
  };
  const base = [
    '/** Adds. */ export function add(a: number, b: number): number { return a + b; }',
    '/** A point. */ export interface Point { readonly x: number; y?: string }',
  ].join('\n');

  it('changes when an export is added, removed or retyped, and names undocumented ones', () => {
    const before = reportOf(base);
    expect(before.names).toEqual(['Point', 'add']);
    expect(before.text).toContain('function add(a: number, b: number): number');
    expect(before.text).toContain('readonly x: number;');
    expect(reportPath(dir)).toBe(join(dir, 'api', 'tiny.api.md'));

    const added = reportOf(`${base}\nexport const extra = 1;`);
    expect(added.names).toEqual(['Point', 'add', 'extra']);
    expect(added.undocumented).toEqual(['extra']);

    const removed = reportOf(base.split('\n')[0] as string);
    expect(removed.names).toEqual(['add']);

    const retyped = reportOf(base.replace('y?: string', 'y?: number'));
    expect(retyped.names).toEqual(before.names);
    expect(retyped.text).not.toBe(before.text);
  });
});
