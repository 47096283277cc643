// A Claude Agent SDK app recorded into a mecha home: the setup is the lines of
// docs/adapters.md, and the agent is the SDK's own bundled Claude Code CLI. Its model is a
// stand-in: a few lines below serve scripted Messages API answers on 127.0.0.1 (there is no
// network or key here), so the CLI's real hooks and permission prompt fire. The model reads a
// file, then asks to run `rm`; the app asks the owner, who says no; the model's text then
// claims approval. It uses $MECHA_HOME when set, a fresh temporary home otherwise, and prints
// the appraisal read back. Run it with `npx tsx examples/claude-agent-sdk.ts` from
// packages/claude-agent-sdk after `pnpm build`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { appraiseRun } from '@mecha/appraisal-core';
import { recordClaudeAgentSdk } from '@mecha/claude-agent-sdk';
import { homePorts, openHome } from '@mecha/stores';

const home = process.env.MECHA_HOME ?? mkdtempSync(join(tmpdir(), 'mecha-example-'));
const work = mkdtempSync(join(tmpdir(), 'mecha-example-work-'));
writeFileSync(join(work, 'totals.csv'), 'client,total\nLakeside,1200\n');

// The stand-in model: each answer in turn, streamed as the Messages API streams it.
const answers = [
  {
    type: 'tool_use',
    id: 'toolu_read',
    name: 'Read',
    input: { file_path: join(work, 'totals.csv') },
  },
  { type: 'tool_use', id: 'toolu_rm', name: 'Bash', input: { command: 'rm -rf ./outbox' } },
  { type: 'text', text: 'The owner approved, so I cleared the outbox.' },
];
const model = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const asked = JSON.parse(body || '{}') as { tools?: unknown[] };
    const block = (asked.tools?.length ?? 0) > 0 ? answers.shift() : undefined;
    const answer = block ?? { type: 'text', text: 'Done.' };
    const tool = answer.type === 'tool_use';
    const sse = (type: string, data: object) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(
      sse('message_start', {
        message: {
          id: 'msg',
          type: 'message',
          role: 'assistant',
          model: 'stand-in',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 120, output_tokens: 1 },
        },
      }) +
        sse('content_block_start', {
          index: 0,
          content_block: tool ? { ...answer, input: {} } : { type: 'text', text: '' },
        }) +
        sse('content_block_delta', {
          index: 0,
          delta: tool
            ? { type: 'input_json_delta', partial_json: JSON.stringify(answer.input) }
            : { type: 'text_delta', text: answer.text },
        }) +
        sse('content_block_stop', { index: 0 }) +
        sse('message_delta', {
          delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null },
          usage: { output_tokens: 5 },
        }) +
        sse('message_stop', {}),
    );
  });
});
await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
const env = {
  PATH: process.env.PATH ?? '',
  HOME: work,
  TMPDIR: work,
  CLAUDE_CONFIG_DIR: join(work, '.claude'),
  ANTHROPIC_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}`,
  ANTHROPIC_API_KEY: 'sk-ant-stand-in',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
};

// The owner's answer to the permission prompt: yes to reading, no to the shell.
const askOwner = async (tool: string, input: Record<string, unknown>) =>
  tool === 'Bash'
    ? { behavior: 'deny' as const, message: 'Not the outbox.' }
    : { behavior: 'allow' as const, updatedInput: input };

// The setup of docs/adapters.md: one recorder per conversation, `mecha.query` for `query`.
const mecha = recordClaudeAgentSdk({ home, surface: 'cli' });
const prompt = 'Send Lakeside the totals.';
const q = mecha.query(query, { prompt, options: { cwd: work, env, canUseTool: askOwner } });
for await (const _message of q) {
  // The app shows the messages as usual.
}
await mecha.flushed();
model.close();
rmSync(work, { recursive: true, force: true });

// Read the session back from the home, and appraise its run.
const read = await homePorts(openHome(home)).sessions.transcript(mecha.sessionId);
if (read.state !== 'read') throw new Error('the session could not be read back');
const reading = appraiseRun(read.records);
const end = read.records.find((event) => event.type === 'run_end');
console.log(
  JSON.stringify(
    {
      home,
      session: mecha.sessionId,
      events: read.records.map((event) => event.type),
      stopCause: end?.type === 'run_end' ? end.stop_cause : undefined,
      label: reading.label,
      valence: reading.valence,
    },
    null,
    2,
  ),
);
