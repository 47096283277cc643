// A stand-in for the Anthropic Messages API on 127.0.0.1, so the SDK's real bundled Claude Code
// CLI runs here with no network: each request the CLI makes with tools gets the next scripted
// answer (a tool call or text), streamed as server-sent events in the API's own shape. It is a
// fake of the model only: the CLI, its hooks, its permission flow and its tools are real.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** One scripted answer: a tool call, or text that ends the turn. */
export type Answer =
  | { readonly tool: { readonly id: string; readonly name: string; readonly input: object } }
  | { readonly text: string };

export interface FakeMessagesApi {
  readonly url: string;
  /** The requests that asked for an answer, in order (their message count). */
  readonly requests: { readonly messages: number }[];
  close(): Promise<void>;
}

function events(answer: Answer, model: string, id: string): string {
  const lines: string[] = [];
  const send = (type: string, data: object) =>
    lines.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 120, output_tokens: 1 },
    },
  });
  if ('tool' in answer) {
    const { id: toolId, name, input } = answer.tool;
    send('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: toolId, name, input: {} },
    });
    send('content_block_delta', {
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
    });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: answer.text } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', {
    delta: { stop_reason: 'tool' in answer ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  send('message_stop', {});
  return lines.join('');
}

/** Starts the stand-in API; answers run out into a plain "Done." */
export async function startFakeMessagesApi(answers: readonly Answer[]): Promise<FakeMessagesApi> {
  const requests: { messages: number }[] = [];
  let next = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (!request.url?.startsWith('/v1/messages') || request.url.includes('count_tokens')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
        return;
      }
      const parsed = JSON.parse(body) as { model?: string; tools?: unknown[]; messages?: [] };
      // A request without tools is the CLI's own side call (a title, say): not the agent's turn.
      const agentTurn = (parsed.tools?.length ?? 0) > 0;
      if (agentTurn) requests.push({ messages: parsed.messages?.length ?? 0 });
      const answer = agentTurn ? (answers[next++] ?? { text: 'Done.' }) : { text: 'Untitled' };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(events(answer, parsed.model ?? 'claude', `msg_${requests.length}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The environment the CLI runs in: the stand-in API with a dummy key, a throwaway config folder
 * home and temporary folder, and every kind of nonessential traffic (telemetry, updates, error reports) off.
 */
export function offlineEnv(api: FakeMessagesApi, folder: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: folder,
    // The CLI's own scratch files go in the test's folder, removed with it.
    TMPDIR: folder,
    CLAUDE_CONFIG_DIR: join(folder, '.claude'),
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}
