import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSourceFolder, listSourceFiles } from './source-files.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('source folders', () => {
  it('defaults to each tool’s own folder, honouring its environment variable', () => {
    const where = { env: {}, homeDirectory: '/home/owner' };
    expect(defaultSourceFolder('claude-code', where)).toBe('/home/owner/.claude/projects');
    expect(defaultSourceFolder('codex', where)).toBe('/home/owner/.codex/sessions');
    const env = { CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex' };
    expect(defaultSourceFolder('claude-code', { ...where, env })).toBe('/cfg/claude/projects');
    expect(defaultSourceFolder('codex', { ...where, env })).toBe('/cfg/codex/sessions');
  });

  it('lists session logs in order, leaving out subagent logs and other files', () => {
    const root = mkdtempSync(join(tmpdir(), 'mecha-sources-'));
    made.push(root);
    for (const path of [
      'p/b.jsonl',
      'p/a.jsonl',
      'p/agent-1.jsonl',
      'p/a/subagents/x.jsonl',
      'p/notes.txt',
    ]) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), '');
    }
    expect(listSourceFiles('claude-code', root).map((path) => path.slice(root.length + 1))).toEqual(
      ['p/a.jsonl', 'p/b.jsonl'],
    );
    mkdirSync(join(root, '2026/09/20'), { recursive: true });
    writeFileSync(join(root, '2026/09/20/rollout-1.jsonl'), '');
    expect(listSourceFiles('codex', root).map((path) => path.slice(root.length + 1))).toEqual([
      '2026/09/20/rollout-1.jsonl',
    ]);
  });
});
