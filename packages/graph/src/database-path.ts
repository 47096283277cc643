import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isPostgresUrl } from './postgres-backend.js';

/** Where the graph lives when nothing says otherwise: `~/.mecha-graph/graph.db`. */
export function defaultDatabasePath(home: string = homedir()): string {
  return join(home, '.mecha-graph', 'graph.db');
}

/**
 * The database: the `--db` flag, else `MECHA_GRAPH_DB`, else the default file. A
 * `postgres://` or `postgresql://` URL is kept as it is; anything else is a file path.
 */
export function resolveDatabasePath(
  flag: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = flag ?? (environment.MECHA_GRAPH_DB || undefined);
  if (chosen === undefined) return defaultDatabasePath();
  return isPostgresUrl(chosen) ? chosen : resolve(chosen);
}
