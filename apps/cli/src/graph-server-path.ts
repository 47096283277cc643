import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Either, isLeft, left, type Refusal, refusal, right } from '@mecha/errors';
import type { McpServerConfig } from '@mecha/stores';

/** The command `mecha init` configures for the home's graph server. */
const graphServerCommand = 'mecha-graph-mcp';

/** Where `mecha-graph-mcp` is (its script), or why it cannot be found. */
export type GraphServerPath = Either<Refusal<'not_found'>, string>;

function binOf(require: NodeJS.Require): string | undefined {
  try {
    const manifest = require.resolve('@mecha/graph/package.json');
    const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
    const bin = (parsed as { bin?: unknown }).bin;
    const relative =
      typeof bin === 'string'
        ? bin
        : typeof bin === 'object' && bin !== null
          ? (bin as Record<string, unknown>)['mecha-graph-mcp']
          : undefined;
    return typeof relative === 'string' ? join(dirname(manifest), relative) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds the script of `@mecha/graph`'s `mecha-graph-mcp` (a dependency of this command) at run
 * time. Run it with `process.execPath`, so it starts whether or not its bin link is on PATH.
 */
export function graphServerPath(): GraphServerPath {
  const bin = binOf(createRequire(import.meta.url));
  if (bin !== undefined) return right(bin);
  return left(
    refusal(
      'not_found',
      "@mecha/graph (the mecha-graph-mcp server) is not installed beside this command: install it (npm install --global @mecha/graph) so 'mecha-graph-mcp' is on PATH",
    ),
  );
}

/**
 * The one way every command starts the home's graph server: the bare `mecha-graph-mcp` of a home
 * made by `mecha init` becomes the script of the `@mecha/graph` installed beside this command,
 * run with this Node, so it starts whether or not its bin link is on PATH. Any other entry (a
 * full path, another program, a url) is kept as configured.
 */
export function runnableGraphServer(server: McpServerConfig): McpServerConfig {
  if (server.command !== graphServerCommand) return server;
  const found = graphServerPath();
  if (isLeft(found)) return server;
  return { ...server, command: process.execPath, args: [found.right, ...server.args] };
}
