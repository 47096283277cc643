import { fileURLToPath } from 'node:url';
import { MechaError } from '@mecha/errors';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The built bin: integration tests run what users install, not the sources. */
export const binPath = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

/** A real `mecha-graph-mcp` process with the SDK's real stdio client connected to it. */
export async function spawnGraphServer(
  args: readonly string[],
  environment: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, ...args],
    env: { ...getDefaultEnvironment(), ...environment },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'graph-integration-test', version: '0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Calls a tool and returns its result, typed. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call; throws with the tool's message on a tool error. */
export async function callOk<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<T> {
  const result = await callTool(client, name, args);
  if (result.isError) {
    const [first] = result.content;
    throw new MechaError(`${name} failed: ${first?.type === 'text' ? first.text : 'no text'}`);
  }
  return result.structuredContent as T;
}
