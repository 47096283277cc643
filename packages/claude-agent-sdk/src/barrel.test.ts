import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built @mecha/claude-agent-sdk', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual(['recordClaudeAgentSdk']);
  });

  it('loads nothing of the SDK at runtime (the SDK stays a peer the app brings)', async () => {
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(entry, 'utf8')).not.toMatch(/@anthropic-ai\//);
  });
});
