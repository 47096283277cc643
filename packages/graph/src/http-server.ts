import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { graphLimits } from './limits.js';

/** The path the Streamable HTTP endpoint answers on. */
export const mcpPath = '/mcp';

export interface GraphHttpOptions {
  readonly host: string;
  readonly port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
  /** Builds one MCP server per session; all of them share the caller's one store. */
  readonly createServer: () => McpServer;
  /** Where failures the client cannot be told about are reported. */
  readonly log: (line: string) => void;
  /**
   * A session with no request for this long is closed and its id forgotten (default
   * graphLimits.httpSessionIdleMs); its client gets 404 and starts a new one. 0 keeps sessions.
   */
  readonly sessionIdleMs?: number;
  /** Milliseconds now, for idle expiry (default Date.now). */
  readonly clock?: () => number;
}

export interface GraphHttpServer {
  /** The endpoint, e.g. http://127.0.0.1:7411/mcp. */
  readonly url: string;
  /** Sessions open now. */
  sessionCount(): number;
  /**
   * Closes every session idle past sessionIdleMs (none with a request in flight); resolves to
   * how many. A timer runs this once a minute; tests call it to drive expiry without waiting.
   */
  expireIdleSessions(): Promise<number>;
  /** Closes every session and the listener. */
  close(): Promise<void>;
}

/** True for addresses and names that only this machine can reach. */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  return (
    lower === 'localhost' ||
    lower === '::1' ||
    lower === '0:0:0:0:0:0:0:1' ||
    /^127(?:\.\d{1,3}){3}$/.test(lower)
  );
}

/** Compares a presented bearer token with the expected one in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/is.exec(header ?? '');
  const presented = match?.[1] ?? '';
  // Hash both sides so the comparison neither leaks the length nor needs equal lengths.
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(token, 'utf8').digest();
  return timingSafeEqual(a, b) && match !== null;
}

/** The name in a Host header (`name`, `name:port`, `[v6]:port`), or undefined when it is not one. */
export function hostnameOf(value: string): string | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^\s:@/?#[\]]+)(?::\d{1,5})?$/.exec(value);
  return match?.[1];
}

function originHostname(value: string): string | undefined {
  try {
    return new URL(value).hostname;
  } catch {
    return undefined;
  }
}

function refuse(response: ServerResponse, status: number, message: string, headers = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > graphLimits.httpBodyBytes) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Serves MCP over Streamable HTTP on `/mcp`. Each client session gets its own MCP server (the
 * SDK's `mcp-session-id` header names it); every server writes through the one shared store, so
 * concurrent clients' writes land in the same database, and a session idle past sessionIdleMs is
 * closed. Before anything reaches the MCP layer, a request must pass the DNS-rebinding guard
 * (Host and Origin must be loopback names when the listener is on loopback) and, when a token is
 * set, the bearer check.
 */
export async function startGraphHttpServer(options: GraphHttpOptions): Promise<GraphHttpServer> {
  const pinLoopback = isLoopback(options.host);
  const clock = options.clock ?? Date.now;
  const idleMs = options.sessionIdleMs ?? graphLimits.httpSessionIdleMs;
  interface Session {
    readonly transport: StreamableHTTPServerTransport;
    readonly server: McpServer;
    lastSeen: number;
    inFlight: number;
  }
  const sessions = new Map<string, Session>();

  async function expireIdleSessions(): Promise<number> {
    if (idleMs <= 0) return 0;
    const now = clock();
    const idle = [...sessions.entries()].filter(
      ([, session]) => session.inFlight === 0 && now - session.lastSeen >= idleMs,
    );
    for (const [id] of idle) sessions.delete(id);
    await Promise.allSettled(idle.map(([, session]) => session.server.close()));
    return idle.length;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (pinLoopback) {
      const host = hostnameOf(request.headers.host ?? '');
      if (host === undefined || !isLoopback(host)) {
        refuse(response, 403, 'Forbidden: the Host header must name this machine (localhost)');
        return;
      }
      const origin = request.headers.origin;
      if (origin !== undefined) {
        const name = originHostname(origin);
        if (name === undefined || !isLoopback(name)) {
          refuse(response, 403, 'Forbidden: requests from other origins are refused');
          return;
        }
      }
    }
    if (
      options.token !== undefined &&
      !bearerMatches(request.headers.authorization, options.token)
    ) {
      refuse(response, 401, 'Unauthorized: send "Authorization: Bearer <token>"', {
        'www-authenticate': 'Bearer',
      });
      return;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== mcpPath) {
      refuse(response, 404, `Not found: the MCP endpoint is ${mcpPath}`);
      return;
    }
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    let body: unknown;
    if (request.method === 'POST') {
      let text: string;
      try {
        text = await readBody(request);
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          refuse(response, 413, `Payload too large: at most ${graphLimits.httpBodyBytes} bytes`);
          return;
        }
        throw error;
      }
      try {
        body = JSON.parse(text);
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32700, message: 'Parse error: the body is not JSON' },
            id: null,
          }),
        );
        return;
      }
    }
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (session === undefined) {
        refuse(response, 404, 'Session not found: initialize a new session');
        return;
      }
      // A GET is the client's standing event stream, open as long as the client is: it does not
      // keep a session alive by itself, or one whose client vanished would never expire.
      const counts = request.method !== 'GET';
      session.lastSeen = clock();
      if (counts) session.inFlight += 1;
      try {
        await session.transport.handleRequest(request, response, body);
      } finally {
        if (counts) session.inFlight -= 1;
        session.lastSeen = clock();
      }
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      refuse(response, 400, 'Bad Request: no mcp-session-id header, and this is not initialize');
      return;
    }
    const server = options.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastSeen: clock(), inFlight: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  const listener: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.log(`http request failed: ${error instanceof Error ? error.message : String(error)}`);
      refuse(response, 500, 'Internal error in the graph server');
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port, options.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const sweeper =
    idleMs > 0
      ? setInterval(
          () => {
            expireIdleSessions().catch((error: unknown) => {
              options.log(`closing idle sessions failed: ${String(error)}`);
            });
          },
          Math.min(idleMs, 60_000),
        )
      : undefined;
  sweeper?.unref();
  return {
    url: `http://${shown}:${address.port}${mcpPath}`,
    sessionCount: () => sessions.size,
    expireIdleSessions,
    async close() {
      if (sweeper !== undefined) clearInterval(sweeper);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map(({ server }) => server.close()));
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      });
    },
  };
}
