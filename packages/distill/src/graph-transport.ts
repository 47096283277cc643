import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import type { McpServerConfig } from '@mecha/stores';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** The environment a url server's token is read from (`process.env` unless a caller says). */
export type GraphEnvironment = Readonly<Record<string, string | undefined>>;

/** How to build a transport: extra arguments for a command server, and the environment. */
export interface GraphTransportOptions {
  /** Arguments added after the configured ones; a command server only (`--role owner`). */
  readonly extraArgs?: readonly string[];
  readonly env?: GraphEnvironment;
}

/** A transport to one `[[mcp]]` server, with what is needed to explain its failures. */
export interface GraphTransport {
  readonly transport: Transport;
  /** `stdio` for a command mecha starts, `http` for a url it reaches. */
  readonly kind: 'stdio' | 'http';
  /**
   * Why a failure happened, in words a person can act on; `lost` when the server is gone, and
   * `expired` when it no longer knew this client's session (the call was not processed).
   */
  explain(
    error: unknown,
    doing: string,
  ): { readonly reason: string; readonly lost: boolean; readonly expired?: true };
  /** Why calls fail once the connection has closed. */
  gone(): string;
  /** Where the server is, for messages: its URL, or its command. */
  readonly where: string;
}

const stderrKept = 2_000;

/** What to do when a command server's program was not found (spawn's ENOENT), or nothing. */
function notFoundFix(error: unknown, command: string): string {
  if ((error as { code?: unknown } | null)?.code !== 'ENOENT') return '';
  return `: '${command}' is not on PATH: install it (npm install --global @mecha/graph for mecha-graph-mcp) or give the [[mcp]] entry's command as a full path; 'mecha doctor' checks that it starts`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The low-level cause of a failed fetch (`ECONNREFUSED`, `ENOTFOUND`), when there is one. */
function networkCause(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 4; depth += 1) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    if (at instanceof TypeError && at.message === 'fetch failed' && at.cause === undefined) {
      return 'fetch failed';
    }
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError && typeof error.code === 'number') return error.code;
  return undefined;
}

function explainHttp(
  server: McpServerConfig & { readonly url: string },
  error: unknown,
  doing: string,
): { reason: string; lost: boolean; expired?: true } {
  const where = `the graph at ${server.url} ([[mcp]] '${server.name}')`;
  const status = httpStatus(error);
  if (status === 401 || status === 403) {
    const refusal = status === 401 ? 'refused the bearer token' : 'refused this client';
    const token =
      server.token_env === undefined
        ? `no token is sent: put the server's token in an environment variable and name it in the [[mcp]] entry, token_env = "MECHA_GRAPH_TOKEN"`
        : `the token is read from $${server.token_env}: set it to the token the server was started with (its MECHA_GRAPH_TOKEN)`;
    const guard =
      status === 403
        ? '; a server on loopback also refuses a Host or Origin that is not a loopback name'
        : '';
    return { reason: `${where} ${refusal} (HTTP ${status}): ${token}${guard}`, lost: false };
  }
  if (status === 404) {
    return {
      reason: `${where} no longer knows this session (HTTP 404: it was restarted, or closed the session as idle): try again`,
      lost: true,
      expired: true,
    };
  }
  const cause = networkCause(error);
  if (cause !== undefined) {
    return {
      reason: `cannot reach ${where} (${cause}): start it there with 'mecha-graph-mcp --http' (and MECHA_GRAPH_TOKEN set), or fix the [[mcp]] url in config.toml`,
      lost: true,
    };
  }
  return {
    reason: `${doing} failed at ${where}: ${messageOf(error)}`,
    lost: status !== undefined && status >= 500,
  };
}

/**
 * Builds the transport for one `[[mcp]]` server: stdio for `command` (the server started here,
 * its stderr kept for messages), Streamable HTTP for `url` with `Authorization: Bearer` from the
 * variable `token_env` names. The one place mecha turns config into a connection; refuses, as a
 * value, a token variable that is unset or empty.
 */
export function graphTransport(
  server: McpServerConfig,
  options: GraphTransportOptions = {},
): Either<Refusal<'unreachable'>, GraphTransport> {
  const env = options.env ?? process.env;
  if (server.url !== undefined) {
    const remote = server as McpServerConfig & { readonly url: string };
    const headers: Record<string, string> = {};
    if (server.token_env !== undefined) {
      const token = env[server.token_env];
      if (token === undefined || token.trim() === '') {
        return left(
          refusal(
            'unreachable',
            `the [[mcp]] server '${server.name}' takes its bearer token from $${server.token_env}, which is ${token === undefined ? 'not set' : 'empty'}: export it with the token the graph at ${server.url} was started with`,
          ),
        );
      }
      // Checked here, by name: a header the fetch layer refuses would print the whole value.
      if (/[^\x21-\x7e]/.test(token.trim())) {
        return left(
          refusal(
            'unreachable',
            `the [[mcp]] server '${server.name}' takes its bearer token from $${server.token_env}, which holds a character a token cannot (a space, a line break or a non-ASCII character): export it with the token alone, on one line`,
          ),
        );
      }
      headers.authorization = `Bearer ${token.trim()}`;
    }
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers },
    });
    return right({
      transport,
      kind: 'http',
      where: server.url,
      explain: (error, doing) => explainHttp(remote, error, doing),
      gone: () =>
        `the connection to the graph at ${server.url} was closed: start it there with 'mecha-graph-mcp --http', or fix the [[mcp]] url in config.toml`,
    });
  }
  const command = server.command ?? '';
  const transport = new StdioClientTransport({
    command,
    args: [...server.args, ...(options.extraArgs ?? [])],
    env: { ...getDefaultEnvironment(), ...server.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer | string) => {
    stderr = `${stderr}${chunk.toString()}`.slice(-stderrKept);
  });
  const withStderr = (reason: string) => {
    const tail = stderr.trim().split('\n').slice(-3).join(' | ');
    return tail === '' ? reason : `${reason} (server said: ${tail})`;
  };
  return right({
    transport,
    kind: 'stdio',
    where: command,
    gone: () => withStderr('the graph server is gone'),
    explain: (error, doing) => ({
      reason: withStderr(
        doing === 'connect'
          ? `cannot start the [[mcp]] server '${server.name}' (${command}): ${messageOf(error)}${notFoundFix(error, command)}`
          : `${doing} failed: ${messageOf(error)}`,
      ),
      lost: false,
    }),
  });
}
