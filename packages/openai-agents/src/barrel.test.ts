import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built @mecha/openai-agents', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual(['recordOpenAIAgents']);
  });

  it('loads nothing of the SDK at runtime (the app brings its own copy)', () => {
    expect(readFileSync(entry, 'utf8')).not.toMatch(/from ['"]@openai\//);
  });
});
