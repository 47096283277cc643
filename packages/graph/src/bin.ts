#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { BoundedStdioTransport } from './bounded-stdio-transport.js';
import { createGraphServer } from './create-graph-server.js';
import { resolveDatabasePath } from './database-path.js';
import { isLoopback, startGraphHttpServer } from './http-server.js';
import { graphLimits } from './limits.js';
import { type GraphStore, openGraphStore } from './open-graph-store.js';
import { isPostgresUrl, redactedUrl } from './postgres-backend.js';
import { parseServerArguments, serverUsage } from './server-arguments.js';

function packageVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  return manifest.version;
}

async function main(): Promise<number | undefined> {
  const parsed = parseServerArguments(process.argv.slice(2));
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(serverUsage);
      return 0;
    case 'version':
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case 'error':
      process.stderr.write(`mecha-graph-mcp: ${parsed.message}\n\n${serverUsage}`);
      return 2;
  }
  const token = process.env.MECHA_GRAPH_TOKEN || undefined;
  if (parsed.http !== undefined && token === undefined && !isLoopback(parsed.http.host)) {
    process.stderr.write(
      `mecha-graph-mcp: --host ${parsed.http.host} is not loopback: set MECHA_GRAPH_TOKEN to a secret bearer token first (clients then send "Authorization: Bearer <token>")\n`,
    );
    return 2;
  }
  const path = resolveDatabasePath(parsed.db);
  let store: GraphStore;
  try {
    store = await openGraphStore({ path });
  } catch (error) {
    process.stderr.write(
      `mecha-graph-mcp: cannot open ${isPostgresUrl(path) ? redactedUrl(path) : path}: ${(error as Error).message}\n`,
    );
    return 1;
  }
  if (parsed.http !== undefined) {
    const role = parsed.role;
    const version = packageVersion();
    let http: Awaited<ReturnType<typeof startGraphHttpServer>>;
    try {
      http = await startGraphHttpServer({
        host: parsed.http.host,
        port: parsed.http.port,
        token,
        createServer: () => createGraphServer({ store, role, version }),
        sessionIdleMs: parsed.http.sessionIdleMs,
        log: (line) => process.stderr.write(`mecha-graph-mcp: ${line}\n`),
      });
    } catch (error) {
      await store.close();
      process.stderr.write(
        `mecha-graph-mcp: cannot listen on ${parsed.http.host}:${parsed.http.port}: ${(error as Error).message}\n`,
      );
      return 1;
    }
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void http
        .close()
        .then(() => store.close())
        .finally(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.stderr.write(
      `mecha-graph-mcp: serving ${store.location} as ${role} on ${http.url}${token === undefined ? ' (no token)' : ' (bearer token required)'}\n`,
    );
    return undefined;
  }
  const server = createGraphServer({ store, role: parsed.role, version: packageVersion() });
  let closed = false;
  const shutdown = () => {
    if (closed) return;
    closed = true;
    void server
      .close()
      .then(() => store.close())
      .finally(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  // stdout carries the protocol; everything else goes to stderr. When the transport closes
  // (stdin ended, or a message it could not answer), the process exits: nobody is left waiting.
  const transport = new BoundedStdioTransport(graphLimits.stdioMessageBytes);
  transport.onclose = shutdown;
  await server.connect(transport);
  const onError = transport.onerror;
  transport.onerror = (error) => {
    process.stderr.write(`mecha-graph-mcp: ${error.message}\n`);
    onError?.(error);
  };
  process.stderr.write(`mecha-graph-mcp: serving ${store.location} as ${parsed.role}\n`);
  return undefined;
}

const code = await main();
if (code !== undefined) process.exitCode = code;
