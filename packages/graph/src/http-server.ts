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
 * The checks before anything reaches the MCP layer: the DNS-rebinding guard (Host and Origin
 * must be loopback names when the listener is on loopback), the bearer token when one is set,
 * and the path. Answers a refused request itself; true when the request may go on.
 */
function admit(request: IncomingMessage, response: ServerResponse, guard: RequestGuard): boolean {
  if (guard.pinLoopback) {
    const host = hostnameOf(request.headers.host ?? '');
    if (host === undefined || !isLoopback(host)) {
      refuse(response, 403, 'Forbidden: the Host header must name this machine (localhost)');
      return false;
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      const name = originHostname(origin);
      if (name === undefined || !isLoopback(name)) {
        refuse(response, 403, 'Forbidden: requests from other origins are refused');
        return false;
      }
    }
  }
  if (guard.token !== undefined && !bearerMatches(request.headers.authorization, guard.token)) {
    refuse(response, 401, 'Unauthorized: send "Authorization: Bearer <token>"', {
      'www-authenticate': 'Bearer',
    });
    return false;
  }
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (path !== mcpPath) {
    refuse(response, 404, `Not found: the MCP endpoint is ${mcpPath}`);
    return false;
  }
  return true;
}

interface RequestGuard {
  readonly pinLoopback: boolean;
  readonly token: string | undefined;
}

/**
 * A POST's body parsed as JSON (a GET has none): `undefined` when it was refused (too large, or
 * not JSON), the refusal already answered.
 */
async function readJsonBody(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<{ readonly body: unknown } | undefined> {
  if (request.method !== 'POST') return { body: undefined };
  let text: string;
  try {
    text = await readBody(request);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      refuse(response, 413, `Payload too large: at most ${graphLimits.httpBodyBytes} bytes`);
      return undefined;
    }
    throw error;
  }
  try {
    return { body: JSON.parse(text) };
  } catch {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: the body is not JSON' },
        id: null,
      }),
    );
    return undefined;
  }
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  lastSeen: number;
  inFlight: number;
}

/**
 * The open MCP sessions by id, each with its own server: opened by an initialize request,
 * forwarded to by later ones, closed when idle past `idleMs` or when the listener closes.
 */
class SessionTable {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly createServer: () => McpServer,
    private readonly clock: () => number,
    readonly idleMs: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Hands a request to the session it names; 404 when there is none. */
  async forward(
    sessionId: string,
    request: IncomingMessage,
    response: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (session === undefined) {
      refuse(response, 404, 'Session not found: initialize a new session');
      return;
    }
    // A GET is the client's standing event stream, open as long as the client is: it does not
    // keep a session alive by itself, or one whose client vanished would never expire.
    const counts = request.method !== 'GET';
    session.lastSeen = this.clock();
    if (counts) session.inFlight += 1;
    try {
      await session.transport.handleRequest(request, response, body);
    } finally {
      if (counts) session.inFlight -= 1;
      session.lastSeen = this.clock();
    }
  }

  /** Opens a session on an initialize request, with a server of its own. */
  async open(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const server = this.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, lastSeen: this.clock(), inFlight: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  readonly expireIdle = async (): Promise<number> => {
    if (this.idleMs <= 0) return 0;
    const now = this.clock();
    const idle = [...this.sessions.entries()].filter(
      ([, session]) => session.inFlight === 0 && now - session.lastSeen >= this.idleMs,
    );
    for (const [id] of idle) this.sessions.delete(id);
    await Promise.allSettled(idle.map(([, session]) => session.server.close()));
    return idle.length;
  };

  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(open.map(({ server }) => server.close()));
  }
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  guard: RequestGuard,
  sessions: SessionTable,
): Promise<void> {
  if (!admit(request, response, guard)) return;
  const header = request.headers['mcp-session-id'];
  const sessionId = Array.isArray(header) ? header[0] : header;
  const read = await readJsonBody(request, response);
  if (read === undefined) return;
  if (sessionId !== undefined) {
    await sessions.forward(sessionId, request, response, read.body);
    return;
  }
  if (request.method !== 'POST' || !isInitializeRequest(read.body)) {
    refuse(response, 400, 'Bad Request: no mcp-session-id header, and this is not initialize');
    return;
  }
  await sessions.open(request, response, read.body);
}

async function listen(listener: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(port, host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shown}:${address.port}${mcpPath}`;
}

// Closes idle sessions once a minute (or once per idle period, when shorter); none when 0.
function startSweeper(
  sessions: SessionTable,
  log: (line: string) => void,
): ReturnType<typeof setInterval> | undefined {
  if (sessions.idleMs <= 0) return undefined;
  const sweeper = setInterval(
    () => {
      sessions.expireIdle().catch((error: unknown) => {
        log(`closing idle sessions failed: ${String(error)}`);
      });
    },
    Math.min(sessions.idleMs, 60_000),
  );
  sweeper.unref();
  return sweeper;
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
  const guard: RequestGuard = { pinLoopback: isLoopback(options.host), token: options.token };
  const sessions = new SessionTable(
    options.createServer,
    options.clock ?? Date.now,
    options.sessionIdleMs ?? graphLimits.httpSessionIdleMs,
  );
  const listener: Server = createServer((request, response) => {
    handle(request, response, guard, sessions).catch((error: unknown) => {
      options.log(`http request failed: ${error instanceof Error ? error.message : String(error)}`);
      refuse(response, 500, 'Internal error in the graph server');
    });
  });
  const url = await listen(listener, options.port, options.host);
  const sweeper = startSweeper(sessions, options.log);
  return {
    url,
    sessionCount: () => sessions.size,
    expireIdleSessions: sessions.expireIdle,
    async close() {
      if (sweeper !== undefined) clearInterval(sweeper);
      await sessions.closeAll();
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      });
    },
  };
}
