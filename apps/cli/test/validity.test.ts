import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, tempDir } from './helpers.js';

// Six real trials of one SWE-bench Verified run (packages/importers/src/__fixtures__/swe-bench).
const jobs = fileURLToPath(
  new URL('../../../packages/importers/src/__fixtures__/swe-bench', import.meta.url),
);

interface Report {
  readonly trials: { readonly found: number; readonly measured: number };
  readonly verdicts: { readonly failed: number; readonly passed: number };
  readonly rules: string;
  readonly commit: string | null;
  readonly discrimination: Record<string, { auc: number | null; resamples: number }>;
  readonly rows: readonly { trial: string; verdict: string; readout: { label: string } }[];
}

describe('mecha validity', () => {
  it('measures the fixture sample: JSON alone on stdout, the same report in --out', () => {
    const out = join(tempDir(), 'validity.json');
    const { run, json } = mechaJson<Report>([
      'validity',
      '--jobs',
      jobs,
      '--resamples',
      '100',
      '--out',
      out,
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(json.trials).toMatchObject({ found: 6, measured: 6 });
    expect(json.verdicts).toEqual({ failed: 3, passed: 3 });
    expect(json.rules).toMatch(/^rules-[0-9a-f]{12}$/);
    expect(json.discrimination.negativeValence).toMatchObject({ auc: 0.5, resamples: 100 });
    expect(json.rows).toHaveLength(6);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(json);
  });

  it('prints the AUCs with their intervals, the resamples and every count', () => {
    const run = mecha(['validity', '--jobs', jobs, '--resamples', '100']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('6 found · 6 measured · 0 not measured');
    expect(run.stdout).toContain('(100 stratified resamples, seed mecha-validity)');
    expect(run.stdout).toMatch(/negative valence +0\.500 +\[0\.500, 0\.500\]/);
    expect(run.stdout).toContain('synthetic outcome 0');
  });

  it('refuses a missing --jobs, an unknown format and a folder it cannot read', () => {
    expect(mecha(['validity'])).toMatchObject({ code: 2, stdout: '' });
    const format = mecha(['validity', '--jobs', jobs, '--format', 'harbor']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format takes swe-bench, not "harbor"');
    const missing = mecha(['validity', '--jobs', join(tempDir(), 'nothing-here')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^mecha validity: cannot read /);
  });
});
