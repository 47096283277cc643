import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLeft } from '@mecha/errors';
import { parseConfig } from '@mecha/stores';
import { graphServerPath } from './graph-server-path.js';

/** What the demo did to its home's `graph` server, in one line to print. */
export type DemoGraphServer =
  | { readonly state: 'installed'; readonly bin: string }
  | { readonly state: 'on_path'; readonly message: string };

/**
 * Gives the demo home the default `graph` server (`mecha-graph-mcp`, from @mecha/distill) and
 * points it at the installed `@mecha/graph` script, run with this Node, so distillation from
 * the demo works whether or not `mecha-graph-mcp` is on PATH, over a graph file inside the demo's
 * own folder.
 */
export async function demoGraphServer(homePath: string): Promise<DemoGraphServer> {
  const { defaultGraphServer, mcpServerToml, writeDefaultGraphServer } = await import(
    '@mecha/distill'
  );
  const written = writeDefaultGraphServer(homePath);
  if (written.state === 'invalid') {
    return {
      state: 'on_path',
      message: `config.toml has problems, so its graph server was left alone: ${written.issues.map((issue) => issue.message).join('; ')}`,
    };
  }
  const found = graphServerPath();
  if (isLeft(found)) return { state: 'on_path', message: found.left.message };
  const file = join(homePath, 'config.toml');
  const current = readFileSync(file, 'utf8');
  const plain = mcpServerToml(defaultGraphServer());
  if (!current.includes(plain)) {
    return {
      state: 'on_path',
      message: "config.toml's graph server is not the default one; it was left alone",
    };
  }
  const next = current.replace(
    plain,
    mcpServerToml({
      ...defaultGraphServer(),
      command: process.execPath,
      // The demo's graph lives in the demo's folder, never in the owner's ~/.mecha-graph.
      args: [found.right, '--db', join(homePath, 'graph.db')],
    }),
  );
  if (parseConfig(next)._tag === 'Left') {
    return { state: 'on_path', message: 'the graph server could not be pointed at @mecha/graph' };
  }
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, next, { flush: true });
  renameSync(temporary, file);
  return { state: 'installed', bin: found.right };
}
