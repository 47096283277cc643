import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where the graph lives when nothing says otherwise: `~/.mecha-graph/graph.db`. */
export function defaultDatabasePath(home: string = homedir()): string {
  return join(home, '.mecha-graph', 'graph.db');
}

/** The database file: the `--db` flag, else `MECHA_GRAPH_DB`, else the default. */
export function resolveDatabasePath(
  flag: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = flag ?? (environment.MECHA_GRAPH_DB || undefined);
  return chosen === undefined ? defaultDatabasePath() : resolve(chosen);
}
