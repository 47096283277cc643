import { parseArgs } from 'node:util';
import type { GraphRole } from './create-graph-server.js';
import { graphLimits } from './limits.js';

/** Where `--http` listens: the host it binds and whether the person named it. */
export interface HttpListen {
  readonly host: string;
  readonly port: number;
  /** True when `--host` was given; the Host/Origin check then no longer pins loopback names. */
  readonly hostGiven: boolean;
  /** Milliseconds a session may sit idle before it is closed; 0 keeps sessions. */
  readonly sessionIdleMs: number;
}

/** What the `mecha-graph-mcp` command line asked for. */
export type ServerArguments =
  | {
      readonly kind: 'serve';
      readonly db: string | undefined;
      readonly role: GraphRole;
      /** Absent: stdio. */
      readonly http?: HttpListen;
    }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string };

/** The port `--http` uses when `--port` is not given. */
export const defaultHttpPort = 7411;

/** The command's usage text. */
export const serverUsage = `usage: mecha-graph-mcp [--db PATH|URL] [--role distiller|owner]
       mecha-graph-mcp --http [--port N] [--host H] [--session-idle S] [--db PATH|URL] [--role distiller|owner]

Serves the mecha knowledge graph over MCP: on stdin/stdout, or with --http over
Streamable HTTP at http://HOST:PORT/mcp.

  --db PATH     the SQLite file (default: $MECHA_GRAPH_DB, else ~/.mecha-graph/graph.db),
  --db URL      or a postgres://user:password@host:port/database URL for a team's
                PostgreSQL; the schema is created or upgraded on start
  --role ROLE   distiller (default): episodes, corrections and reads;
                owner: also review decisions and redaction, for a person
  --http        serve over Streamable HTTP instead of stdio
  --port N      the TCP port (default ${defaultHttpPort}; 0 picks a free one)
  --host H      the address to bind (default 127.0.0.1). Any address but loopback
                needs a bearer token in $MECHA_GRAPH_TOKEN. With a token set, every
                request must carry "Authorization: Bearer <token>".
  --session-idle S  close an HTTP session after S seconds without a request
                (default ${graphLimits.httpSessionIdleMs / 1000}; 0 keeps sessions open)
  --help        this text
  --version     the package version
`;

/** Parses the command line; never throws. */
export function parseServerArguments(argv: readonly string[]): ServerArguments {
  let values: {
    db?: string | undefined;
    role?: string | undefined;
    http?: boolean | undefined;
    port?: string | undefined;
    host?: string | undefined;
    'session-idle'?: string | undefined;
    help?: boolean | undefined;
    version?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        db: { type: 'string' },
        role: { type: 'string' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        'session-idle': { type: 'string' },
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
  if (!values.http) {
    if (values.port !== undefined) return { kind: 'error', message: '--port needs --http' };
    if (values.host !== undefined) return { kind: 'error', message: '--host needs --http' };
    if (values['session-idle'] !== undefined) {
      return { kind: 'error', message: '--session-idle needs --http' };
    }
    return { kind: 'serve', db: values.db, role };
  }
  let port = defaultHttpPort;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65_535) {
      return {
        kind: 'error',
        message: `--port must be a whole number from 0 to 65535, not "${values.port}"`,
      };
    }
    port = Number(values.port);
  }
  if (values.host !== undefined && values.host.trim() === '') {
    return { kind: 'error', message: '--host needs an address' };
  }
  let sessionIdleMs: number = graphLimits.httpSessionIdleMs;
  const idle = values['session-idle'];
  if (idle !== undefined) {
    if (!/^\d{1,7}$/.test(idle)) {
      return {
        kind: 'error',
        message: `--session-idle must be a whole number of seconds (0 keeps sessions), not "${idle}"`,
      };
    }
    sessionIdleMs = Number(idle) * 1000;
  }
  const host = values.host ?? '127.0.0.1';
  return {
    kind: 'serve',
    db: values.db,
    role,
    http: { host, port, hostGiven: values.host !== undefined, sessionIdleMs },
  };
}
