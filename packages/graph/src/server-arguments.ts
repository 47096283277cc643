import { parseArgs } from 'node:util';
import type { GraphRole } from './create-graph-server.js';

/** What the `mecha-graph-mcp` command line asked for. */
export type ServerArguments =
  | { readonly kind: 'serve'; readonly db: string | undefined; readonly role: GraphRole }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string };

/** The command's usage text. */
export const serverUsage = `usage: mecha-graph-mcp [--db PATH] [--role distiller|owner]

Serves the mecha knowledge graph over MCP on stdin/stdout.

  --db PATH     the SQLite file (default: $MECHA_GRAPH_DB, else ~/.mecha-graph/graph.db)
  --role ROLE   distiller (default): episodes, corrections and reads;
                owner: also review decisions and redaction, for a person
  --help        this text
  --version     the package version
`;

/** Parses the command line; never throws. */
export function parseServerArguments(argv: readonly string[]): ServerArguments {
  let values: {
    db?: string | undefined;
    role?: string | undefined;
    help?: boolean | undefined;
    version?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        db: { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (values.db === '') return { kind: 'error', message: '--db needs a file path' };
  const role = values.role ?? 'distiller';
  if (role !== 'distiller' && role !== 'owner') {
    return { kind: 'error', message: `--role must be distiller or owner, not "${role}"` };
  }
  return { kind: 'serve', db: values.db, role };
}
