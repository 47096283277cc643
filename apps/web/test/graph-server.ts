import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The built `mecha-graph-mcp` of @mecha/graph: tests start what users install. */
export const graphBin = join(
  dirname(createRequire(import.meta.url).resolve('@mecha/graph/package.json')),
  'dist',
  'bin.js',
);

/** A real `mecha-graph-mcp --http` process on a free loopback port. */
export interface HttpGraph {
  /** The endpoint it printed, e.g. http://127.0.0.1:43121/mcp. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Sends SIGTERM and resolves once the process has gone. */
  stop(): Promise<void>;
}

/**
 * Starts `mecha-graph-mcp --http --port 0` with `args` and MECHA_GRAPH_TOKEN = `token`, and waits
 * (on its output, never a clock) for the line naming its endpoint.
 */
export async function startHttpGraph(args: readonly string[], token: string): Promise<HttpGraph> {
  const env = { ...process.env, MECHA_GRAPH_TOKEN: token };
  const child = spawn(process.execPath, [graphBin, '--http', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = / on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`the graph server exited early: ${stderr}`)));
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
