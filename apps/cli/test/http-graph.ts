import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type HttpGraph, startHttpGraph as startGraph } from '@mecha/fixtures';

export type { HttpGraph };

/** The built `mecha-graph-mcp` of @mecha/graph: tests start what users install. */
export const graphBin = join(
  dirname(createRequire(import.meta.url).resolve('@mecha/graph/package.json')),
  'dist',
  'bin.js',
);

/** A real `mecha-graph-mcp --http` on a free loopback port, with `args` and this token. */
export function startHttpGraph(args: readonly string[], token: string): Promise<HttpGraph> {
  return startGraph({ bin: graphBin, args, token });
}
