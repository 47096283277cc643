import { request } from 'node:http';
import { type HttpGraph, startHttpGraph } from '@mecha/fixtures';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { binPath } from './spawn-graph-server.js';

/** A real `mecha-graph-mcp --http` process on a free loopback port. */
export type HttpGraphServer = HttpGraph;

/**
 * Starts the built bin with `--http --port 0` plus `args` and waits (on its output, not a clock)
 * for the line naming its endpoint. MECHA_GRAPH_TOKEN comes only from `environment`.
 */
export function spawnHttpGraphServer(
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<HttpGraphServer> {
  return startHttpGraph({ bin: binPath, args, env: environment });
}

/** The SDK's real client over Streamable HTTP, sending a bearer token when given one. */
export async function connectHttpClient(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'graph-http-test', version: '0' });
  await client.connect(transport);
  return client;
}

/** One raw HTTP POST with exactly the headers given (fetch will not let a test set Host). */
export function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const sent = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });
}

/** A JSON-RPC initialize request as a client opens a session with. */
export const initializeRequest = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '0' },
  },
} as const;
