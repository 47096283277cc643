import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));
// Everything but the `node` entry and its folder must run in a browser.
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
  (file) =>
    file.endsWith('.ts') &&
    !file.endsWith('.test.ts') &&
    file !== 'node.ts' &&
    !file.startsWith('node/') &&
    !file.startsWith('__fixtures__/'),
);

const builtins =
  /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](?:node:[^'"]*|fs|fs\/promises|path|os|url|child_process|crypto|process|buffer|stream|util|worker_threads)['"]/;

describe('the package source outside the node entry', () => {
  it('is found', () => {
    expect(sources).toContain('index.ts');
    expect(sources).toContain('run-context.ts');
  });

  it.each(sources)('%s imports no Node module', (file) => {
    const text = readFileSync(`${src}/${file}`, 'utf8');
    expect(text).not.toMatch(builtins);
    expect(text).not.toMatch(/\bprocess\.|\bBuffer\b|\b__dirname\b/);
  });
});
