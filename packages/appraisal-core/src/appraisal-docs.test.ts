import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderDocument } from '../scripts/write-docs.mjs';
import { contributionTable } from './rules/contribution-table.js';
import { labelRules } from './rules/derive-label.js';
import { reachability, reachabilityLine } from './rules/reachability.js';

const path = fileURLToPath(new URL('../../../docs/appraisal.md', import.meta.url));
const api = { contributionTable, labelRules, reachability, reachabilityLine };

describe('docs/appraisal.md', () => {
  const document = readFileSync(path, 'utf8');

  it('holds the generated sections exactly as the code renders them', () => {
    // Stale? Run: pnpm --filter @mecha/appraisal-core run build && … run docs
    expect(document).toBe(renderDocument(document, api));
  });

  it('lists every contribution row and every label rule', () => {
    for (const id of Object.keys(contributionTable)) expect(document).toContain(`\`${id}\``);
    for (const rule of labelRules) expect(document).toContain(`(\`${rule.id}\`)`);
    expect(document).toContain(reachabilityLine());
  });

  it('refuses a document that lost a marker', () => {
    expect(() => renderDocument('# nothing here\n', api)).toThrow(/generated:contributions/);
  });
});
