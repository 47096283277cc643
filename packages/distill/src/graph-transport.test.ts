import type { McpServerConfig } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { connectGraph } from './graph-client.js';
import { graphTransport } from './graph-transport.js';

const remote: McpServerConfig = {
  name: 'team',
  url: 'http://127.0.0.1:9/mcp',
  token_env: 'TEAM_GRAPH_TOKEN',
  args: [],
  env: {},
  prefix_tools: false,
  capabilities: {},
};

describe('graphTransport', () => {
  it('refuses a url server whose token variable is unset or empty, naming it, before sending anything', async () => {
    const unset = graphTransport(remote, { env: {} });
    expect(unset).toEqual({
      ok: false,
      reason: expect.stringContaining(
        'takes its bearer token from $TEAM_GRAPH_TOKEN, which is not set',
      ),
    });
    const empty = graphTransport(remote, { env: { TEAM_GRAPH_TOKEN: '  ' } });
    expect(empty.ok === false && empty.reason).toContain('which is empty');
    const connected = await connectGraph(remote, { env: {} });
    expect(connected.ok === false && connected.reason).toContain('$TEAM_GRAPH_TOKEN');
  });

  it('builds Streamable HTTP for a url and stdio for a command', () => {
    const http = graphTransport(remote, { env: { TEAM_GRAPH_TOKEN: 'x' } });
    expect(http.ok && http.graph.kind).toBe('http');
    expect(http.ok && http.graph.where).toBe(remote.url);
    const { url: _url, token_env: _token, ...rest } = remote;
    const stdio = graphTransport({ ...rest, command: 'mecha-graph-mcp' });
    expect(stdio.ok && stdio.graph.kind).toBe('stdio');
  });
});
