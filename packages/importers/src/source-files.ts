import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportTool } from './session-builder.js';

/**
 * The folder a tool keeps its session logs in: `$CLAUDE_CONFIG_DIR/projects` else
 * `~/.claude/projects` for Claude Code, `$CODEX_HOME/sessions` else `~/.codex/sessions` for Codex.
 */
export function defaultSourceFolder(
  tool: ImportTool,
  where: {
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly homeDirectory: string;
  },
): string {
  if (tool === 'claude-code') {
    const config = where.env.CLAUDE_CONFIG_DIR;
    return join(
      config !== undefined && config !== '' ? config : join(where.homeDirectory, '.claude'),
      'projects',
    );
  }
  const codex = where.env.CODEX_HOME;
  return join(
    codex !== undefined && codex !== '' ? codex : join(where.homeDirectory, '.codex'),
    'sessions',
  );
}

/** Whether a file is one of the tool's session logs (Claude Code subagent logs are not). */
function isSessionLog(tool: ImportTool, name: string, folders: readonly string[]): boolean {
  if (!name.endsWith('.jsonl')) return false;
  if (tool === 'codex') return name.startsWith('rollout-');
  return !name.startsWith('agent-') && !folders.includes('subagents');
}

/**
 * Every session log under a tool's folder, as absolute paths in a stable (sorted) order.
 * Listing a folder that is not there or cannot be read throws, with the path in the message.
 */
export function listSourceFiles(tool: ImportTool, root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, folders: readonly string[]) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, [...folders, entry.name]);
      else if (entry.isFile() && isSessionLog(tool, entry.name, folders)) found.push(path);
    }
  };
  walk(root, []);
  return found;
}
