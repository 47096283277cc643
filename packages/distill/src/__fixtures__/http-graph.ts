import { type HttpGraph, startHttpGraph as startGraph } from '@mecha/fixtures';
import { graphBin } from './graph-home.js';

export type { HttpGraph };

/** A real `mecha-graph-mcp --http` on a free loopback port, with `args` and this token. */
export function startHttpGraph(args: readonly string[], token: string): Promise<HttpGraph> {
  return startGraph({ bin: graphBin, args, token });
}
