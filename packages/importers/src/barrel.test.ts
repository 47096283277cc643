import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built @mecha/importers', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'SessionBuilder',
      'aucInterval',
      'aucMannWhitney',
      'claudeCodeHookEvents',
      'defaultMaxLineBytes',
      'defaultSourceFolder',
      'importFromClaudeCodeHook',
      'importHistory',
      'ledgerEntrySchema',
      'ledgerFile',
      'ledgerPointers',
      'listSourceFiles',
      'mapClaudeCodeLine',
      'mapCodexLine',
      'mapMiniSweAgentTrajectory',
      'newSessionState',
      'readBenchmarkJobs',
      'readLedger',
      'readLines',
      'readSweBenchReport',
      'readoutOf',
      'rulesVersion',
      'validityReport',
      'verifierOutcomeSchema',
      'watchHistory',
    ]);
  });
});
