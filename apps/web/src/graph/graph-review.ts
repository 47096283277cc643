import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';

/** How to start the graph server as its owner: a command, its arguments and environment. */
export interface GraphServerCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** A tool's answer, or why there is none, as a value. */
export type GraphAnswer =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly reason: string };

/** The graph's review queue through its owner tools over MCP. */
export interface GraphReview {
  /** Calls one of the graph's tools: the owner's review tools, or `kg_upsert` and `kg_correct` (a test's episodes). */
  call(
    tool: GraphOwnerTool | 'kg_upsert' | 'kg_correct',
    input: Record<string, unknown>,
  ): Promise<GraphAnswer>;
  close(): Promise<void>;
}

/** The tools the board calls; the server must offer them (it does when started with `--role owner`). */
export type GraphOwnerTool =
  | 'kg_review_list'
  | 'kg_review_decide'
  | 'kg_correction_resolve'
  | 'kg_redact';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A review client that starts the graph server (stdio) the first time it is needed and keeps
 * the connection; if the server goes away, the next call starts it again.
 */
export function graphReview(server: GraphServerCommand, timeoutMs = 30_000): GraphReview {
  let connecting: Promise<{ client: Client; lost: () => boolean } | string> | undefined;

  const connect = async (): Promise<{ client: Client; lost: () => boolean } | string> => {
    const transport = new StdioClientTransport({
      command: server.command,
      args: [...server.args],
      env: { ...getDefaultEnvironment(), ...(server.env ?? {}) },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      stderr = `${stderr}${chunk.toString()}`.slice(-2_000);
    });
    const client = new Client({ name: 'mecha-web', version: '0.0.0' });
    let lost = false;
    client.onclose = () => {
      lost = true;
    };
    try {
      await client.connect(transport, { timeout: timeoutMs });
      const tools = await client.listTools(undefined, { timeout: timeoutMs });
      const names = new Set(tools.tools.map((tool) => tool.name));
      const missing = [
        'kg_review_list',
        'kg_review_decide',
        'kg_correction_resolve',
        'kg_redact',
      ].filter((name) => !names.has(name));
      if (missing.length > 0) {
        await client.close();
        return `the graph server offers no ${missing.join(', ')}: start it as the owner (mecha-graph-mcp --role owner)`;
      }
      return { client, lost: () => lost };
    } catch (error) {
      await client.close().catch(() => undefined);
      const tail = stderr.trim().split('\n').slice(-2).join(' | ');
      return `cannot start the graph server (${server.command}): ${messageOf(error)}${tail === '' ? '' : ` (server said: ${tail})`}`;
    }
  };

  return {
    async call(tool, input) {
      connecting ??= connect();
      let connection = await connecting;
      if (typeof connection !== 'string' && connection.lost()) {
        connecting = connect();
        connection = await connecting;
      }
      if (typeof connection === 'string') {
        connecting = undefined;
        return { ok: false, reason: connection };
      }
      try {
        const result = await connection.client.callTool(
          { name: tool, arguments: input },
          undefined,
          {
            timeout: timeoutMs,
          },
        );
        if (result.isError === true) {
          const content = Array.isArray(result.content) ? result.content : [];
          const text = content
            .map((item: unknown) =>
              typeof item === 'object' && item !== null && 'text' in item ? String(item.text) : '',
            )
            .join(' ')
            .trim();
          return {
            ok: false,
            reason: `${tool} refused: ${text === '' ? 'no reason given' : text}`,
          };
        }
        const value = result.structuredContent;
        if (typeof value !== 'object' || value === null) {
          return { ok: false, reason: `${tool} answered with no structured content` };
        }
        return { ok: true, value: value as Record<string, unknown> };
      } catch (error) {
        return { ok: false, reason: `${tool} failed: ${messageOf(error)}` };
      }
    },
    async close() {
      const connection = await connecting;
      connecting = undefined;
      if (connection !== undefined && typeof connection !== 'string') {
        await connection.client.close().catch(() => undefined);
      }
    },
  };
}
