import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiReports } from '../../../scripts/api-report.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// API Extractor reads the built declarations (dist/*.d.ts); turbo builds before it tests.
describe('the API reports of @mecha/claude-agent-sdk', () => {
  it.each(apiReports(packageDir))(
    'the report of $subpath matches the checked-in one (update: node scripts/api-report.mjs packages/claude-agent-sdk --write)',
    ({ text, current }) => {
      // Line by line, so a failure prints the lines that differ.
      expect(text.split('\n')).toEqual(current.split('\n'));
    },
  );
});
