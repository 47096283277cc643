import { leftOrThrow, rightOrThrow } from '@mecha/errors';
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
      _tag: 'Left',
      left: {
        kind: 'unreachable',
        message: expect.stringContaining(
          'takes its bearer token from $TEAM_GRAPH_TOKEN, which is not set',
        ),
      },
    });
    const empty = graphTransport(remote, { env: { TEAM_GRAPH_TOKEN: '  ' } });
    expect(leftOrThrow(empty).message).toContain('which is empty');
    const connected = await connectGraph(remote, { env: {} });
    expect(leftOrThrow(connected).message).toContain('$TEAM_GRAPH_TOKEN');
  });

  it('refuses a token a header cannot carry, naming the variable and never the value', () => {
    for (const token of ['s3cret\nline2', 'two words', 's3crét']) {
      const refused = graphTransport(remote, { env: { TEAM_GRAPH_TOKEN: token } });
      const reason = leftOrThrow(refused).message;
      expect(reason).toContain('$TEAM_GRAPH_TOKEN, which holds a character a token cannot');
      expect(reason).not.toMatch(/s3cr|words/);
    }
    // Surrounding whitespace (a trailing newline from a file) is trimmed, not refused.
    expect(graphTransport(remote, { env: { TEAM_GRAPH_TOKEN: ' tok3n\n' } })._tag).toBe('Right');
  });

  it('builds Streamable HTTP for a url and stdio for a command', () => {
    const http = graphTransport(remote, { env: { TEAM_GRAPH_TOKEN: 'x' } });
    expect(rightOrThrow(http).kind).toBe('http');
    expect(rightOrThrow(http).where).toBe(remote.url);
    const { url: _url, token_env: _token, ...rest } = remote;
    const stdio = graphTransport({ ...rest, command: 'mecha-graph-mcp' });
    expect(rightOrThrow(stdio).kind).toBe('stdio');
  });
});
