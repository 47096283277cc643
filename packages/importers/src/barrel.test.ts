import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built @mecha/importers', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'aucInterval',
      'claudeCodeHookEvents',
      'codexNotifyTypes',
      'defaultSourceFolder',
      'importFromClaudeCodeHook',
      'importFromCodexNotify',
      'importHistory',
      'ledgerFile',
      'ledgerPointers',
      'readBenchmarkJobs',
      'validityReport',
      'watchHistory',
    ]);
  });
});
