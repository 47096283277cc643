import { spawnSync } from 'node:child_process';
import type { McpServerConfig } from '@mecha/stores';
import { runnableGraphServer } from './graph-server-path.js';

/** Whether the home's graph server starts, as `mecha doctor` reports it. */
export type GraphServerCheck =
  | { readonly state: 'none' }
  | { readonly state: 'remote'; readonly url: string }
  | {
      readonly state: 'started';
      readonly command: string;
      readonly runs: readonly string[];
      readonly version: string;
    }
  | {
      readonly state: 'not_started';
      readonly command: string;
      readonly runs: readonly string[];
      readonly message: string;
    };

/** Generous: it bounds a server that hangs on `--version`, it times nothing. */
const startLimitMs = 60_000;

/**
 * Starts the home's command graph server the way every command does (`runnableGraphServer`),
 * with `--version` so that it opens no database and writes nothing, and says whether it ran and
 * what to do when it did not. A url server is reported, not reached.
 */
export function checkGraphServer(server: McpServerConfig | undefined): GraphServerCheck {
  if (server === undefined) return { state: 'none' };
  if (server.url !== undefined) return { state: 'remote', url: server.url };
  const command = server.command ?? '';
  const run = runnableGraphServer(server);
  const runs = [run.command ?? '', ...run.args];
  const started = spawnSync(run.command ?? '', [...run.args, '--version'], {
    encoding: 'utf8',
    env: { ...process.env, ...run.env },
    timeout: startLimitMs,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const fail = (message: string) => ({ state: 'not_started', command, runs, message }) as const;
  if (started.error !== undefined) {
    const code = (started.error as { code?: unknown }).code;
    if (code === 'ENOENT') {
      return fail(
        `'${command}' is not on PATH: install it (npm install --global @mecha/graph for mecha-graph-mcp) or give the [[mcp]] entry's command as a full path in config.toml`,
      );
    }
    return fail(`'${command}' did not start: ${started.error.message}`);
  }
  if (started.status !== 0) {
    const said = `${started.stderr}`.trim().split('\n').slice(-2).join(' | ');
    return fail(
      `'${command}' exited ${started.status ?? started.signal} on --version${said === '' ? '' : ` (it said: ${said})`}: check its command and args in config.toml`,
    );
  }
  return { state: 'started', command, runs, version: `${started.stdout}`.trim() };
}
