import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportTool } from './session-state.js';

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

/** A file under a tool's folder that is not read, and why (one report line each). */
export interface PassedOverFile {
  readonly file: string;
  readonly reason: string;
}

/** Why a `.jsonl` file is not one of the tool's session logs, or undefined when it is one. */
function notASessionLog(
  tool: ImportTool,
  name: string,
  folders: readonly string[],
): string | undefined {
  if (tool === 'codex') {
    return name.startsWith('rollout-')
      ? undefined
      : 'not named rollout-*.jsonl, so not a Codex rollout: not read (Claude Code logs are read by `mecha import claude-code`)';
  }
  if (name.startsWith('agent-') || folders.includes('subagents')) {
    return "a subagent's log: not mapped (a subagent's conversation is the parent agent's, not the person's)";
  }
  return undefined;
}

/**
 * Every session log under a tool's folder, as absolute paths in a stable (sorted) order, and
 * every other `.jsonl` file there with the reason it is passed over (a subagent's log, a file
 * that is not a rollout, a link to a folder). A link to a file is followed. Listing a folder
 * that is not there or cannot be read throws, with the path in the message.
 */
export function surveySourceFiles(
  tool: ImportTool,
  root: string,
): { readonly files: string[]; readonly passedOver: PassedOverFile[] } {
  const files: string[] = [];
  const passedOver: PassedOverFile[] = [];
  const walk = (dir: string, folders: readonly string[]) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path, [...folders, entry.name]);
        continue;
      }
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        let target: ReturnType<typeof statSync> | undefined;
        try {
          target = statSync(path);
        } catch {
          target = undefined;
        }
        if (target === undefined) {
          if (entry.name.endsWith('.jsonl')) {
            passedOver.push({ file: path, reason: 'a symbolic link to nothing: not read' });
          }
          continue;
        }
        if (target.isDirectory()) {
          passedOver.push({
            file: path,
            reason:
              'a symbolic link to a folder: not followed (import that folder by its own path)',
          });
          continue;
        }
        isFile = target.isFile();
      }
      if (!isFile || !entry.name.endsWith('.jsonl')) continue;
      const reason = notASessionLog(tool, entry.name, folders);
      if (reason === undefined) files.push(path);
      else passedOver.push({ file: path, reason });
    }
  };
  walk(root, []);
  return { files, passedOver };
}

/**
 * Every session log under a tool's folder, as absolute paths in a stable (sorted) order (see
 * {@link surveySourceFiles}, which also says what it passed over).
 */
export function listSourceFiles(tool: ImportTool, root: string): string[] {
  return surveySourceFiles(tool, root).files;
}
