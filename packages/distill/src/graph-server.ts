import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import {
  type ConfigIssue,
  type McpServerConfig,
  type MechaConfig,
  parseConfig,
} from '@mecha/stores';

/** The `[[mcp]]` server distillation pushes to unless told otherwise. */
export const defaultGraphServerName = 'graph';

/**
 * The default `[[mcp]]` entry for the knowledge graph: the embedded `mecha-graph-mcp` server,
 * its own `kg_` tool names kept, and its read-back marked untrusted (what `mecha demo` writes).
 */
export function defaultGraphServer(): McpServerConfig {
  return {
    name: defaultGraphServerName,
    command: 'mecha-graph-mcp',
    args: [],
    env: {},
    prefix_tools: false,
    capabilities: { untrusted_input: true },
  };
}

function tomlString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Renders one `[[mcp]]` entry (command or url) as `config.toml` text, capabilities table included. */
export function mcpServerToml(server: McpServerConfig): string {
  const lines = ['[[mcp]]', `name = ${tomlString(server.name)}`];
  if (server.url !== undefined) {
    lines.push(`url = ${tomlString(server.url)}`);
    if (server.token_env !== undefined) lines.push(`token_env = ${tomlString(server.token_env)}`);
  }
  if (server.command !== undefined) lines.push(`command = ${tomlString(server.command)}`);
  if (server.args.length > 0) lines.push(`args = [${server.args.map(tomlString).join(', ')}]`);
  lines.push(`prefix_tools = ${server.prefix_tools}`);
  const env = Object.entries(server.env);
  if (env.length > 0) {
    lines.push(
      '',
      '[mcp.env]',
      ...env.map(([key, value]) => `${tomlString(key)} = ${tomlString(value)}`),
    );
  }
  if (server.capabilities.untrusted_input === true) {
    lines.push('', '[mcp.capabilities]', 'untrusted_input = true');
  }
  return `${lines.join('\n')}\n`;
}

/** Why distillation cannot run without the named server, in the words the CLI prints. */
export function missingServerMessage(name: string): string {
  return `no [[mcp]] server named '${name}' in config — distillation stages episodes through the knowledge graph server and cannot run without it`;
}

/** The named `[[mcp]]` server, or a refusal saying why distillation cannot run. */
export function findMcpServer(
  config: MechaConfig,
  name: string,
): Either<Refusal<'not_found'>, McpServerConfig> {
  const server = config.mcp.find((entry) => entry.name === name);
  return server === undefined
    ? left(refusal('not_found', missingServerMessage(name)))
    : right(server);
}

/** What mecha treats a server's results as, after the config's `[mcp.capabilities]` override. */
export interface McpCapabilities {
  readonly untrusted_input: boolean;
}

/**
 * Applies a server's `[mcp.capabilities]` override to what mecha would otherwise assume. The
 * override only widens: it can mark a server's results untrusted, never make them trusted.
 */
export function effectiveCapabilities(
  server: McpServerConfig,
  assumed: McpCapabilities = { untrusted_input: false },
): McpCapabilities {
  return {
    untrusted_input: assumed.untrusted_input || server.capabilities.untrusted_input === true,
  };
}

/** What writing the default graph entry did. */
export type GraphServerWrite =
  | { readonly state: 'added'; readonly file: string }
  | { readonly state: 'present'; readonly file: string }
  | { readonly state: 'invalid'; readonly file: string; readonly issues: readonly ConfigIssue[] };

/**
 * Adds the default graph entry to `<home>/config.toml` unless a server of that name is there:
 * the file is created when missing, appended to otherwise, checked as a whole before it is
 * swapped in, and never rewritten when it does not parse.
 */
export function writeDefaultGraphServer(homePath: string): GraphServerWrite {
  const file = join(homePath, 'config.toml');
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') {
      return {
        state: 'invalid',
        file,
        issues: [{ key: '', message: `config.toml cannot be read: ${String(error)}` }],
      };
    }
  }
  const before = parseConfig(current);
  if (before._tag === 'Left') return { state: 'invalid', file, issues: before.left };
  if (findMcpServer(before.right, defaultGraphServerName)._tag === 'Right')
    return { state: 'present', file };
  const separator =
    current === '' || current.endsWith('\n\n') ? '' : current.endsWith('\n') ? '\n' : '\n\n';
  const next = `${current}${separator}${mcpServerToml(defaultGraphServer())}`;
  const after = parseConfig(next);
  if (after._tag === 'Left') return { state: 'invalid', file, issues: after.left };
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, next, { flush: true });
  renameSync(temporary, file);
  return { state: 'added', file };
}
