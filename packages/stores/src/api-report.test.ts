import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiReport, reportPath } from '../../../scripts/api-report.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the API report of @mecha/stores', () => {
  it('matches the checked-in api/stores.api.md (update: node scripts/api-report.mjs packages/stores --write)', () => {
    const report = apiReport(packageDir);
    expect(report.text).toBe(readFileSync(reportPath(packageDir), 'utf8'));
  });
});
