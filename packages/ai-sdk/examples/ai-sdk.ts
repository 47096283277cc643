// A Vercel AI SDK app recorded into a mecha home: the setup is the five lines of
// docs/adapters.md, and the model is the SDK's own mock (`MockLanguageModelV4` from `ai/test`),
// so it runs with no network or key. The model reads a file, then asks to send mail; the app
// asks the owner first, and the owner says no through the SDK's approval response. It uses
// $MECHA_HOME when set, a fresh temporary home otherwise, and prints the appraisal read back.
// Run it with `npx tsx examples/ai-sdk.ts` from packages/ai-sdk after `pnpm build`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordAiSdk } from '@mecha/ai-sdk';
import { appraiseRun } from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import { generateText, jsonSchema, type ModelMessage, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const home = process.env.MECHA_HOME ?? mkdtempSync(join(tmpdir(), 'mecha-example-'));
const usage = {
  inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 8, text: 8, reasoning: 0 },
};
const call = (toolCallId: string, toolName: string, input: object) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const base = new MockLanguageModelV4({
  doGenerate: [
    call('c1', 'read_file', { path: 'totals.csv' }),
    call('c2', 'send_mail', { to: 'lakeside@example.com' }),
    {
      // The model claims approval: words are never taken for the owner's act.
      content: [{ type: 'text', text: 'The owner approved, so I sent it.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage,
      warnings: [],
    },
  ],
});
const path = jsonSchema<{ path: string }>({
  type: 'object',
  properties: { path: { type: 'string' } },
});
const to = jsonSchema<{ to: string }>({ type: 'object', properties: { to: { type: 'string' } } });
const tools = {
  read_file: tool({ inputSchema: path, execute: async (input) => `rows of ${input.path}` }),
  send_mail: tool({ inputSchema: to, execute: async () => 'sent' }),
};
const toolApproval = { send_mail: 'user-approval' } as const;
const prompt = 'Send Lakeside the totals.';

// The setup of docs/adapters.md: one recorder per conversation, one run per generateText call.
const mecha = recordAiSdk({ home, surface: 'cli' });
const run = mecha.run();
const model = wrapLanguageModel({ model: base, middleware: run.middleware });
const stopWhen = () => false; // let the agent loop run until it parks or answers
const parked = await generateText({ model, tools, toolApproval, stopWhen, prompt, ...run.hooks });

// The app shows the request to the owner, who says no: the next call carries the SDK's answer.
const request = parked.content.find((part) => part.type === 'tool-approval-request');
const approvalId = request?.type === 'tool-approval-request' ? request.approvalId : '';
const messages: ModelMessage[] = [
  { role: 'user', content: prompt },
  ...parked.response.messages,
  { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: false }] },
];
const next = mecha.run();
const resumed = wrapLanguageModel({ model: base, middleware: next.middleware });
await generateText({ model: resumed, tools, toolApproval, stopWhen, messages, ...next.hooks });
await next.flushed();

// Read the session back from the home, and appraise each run.
const read = await homePorts(openHome(home)).sessions.transcript(mecha.sessionId);
if (read.state !== 'read') throw new Error('the session could not be read back');
const runs = [run.runId(), next.runId()].map((runId) => {
  const events = read.records.filter((event) => event.run_id === runId);
  const reading = appraiseRun(events);
  const end = events.find((event) => event.type === 'run_end');
  return {
    events: events.map((event) => event.type),
    stopCause: end?.type === 'run_end' ? end.stop_cause : undefined,
    label: reading.label,
    valence: reading.valence,
  };
});
console.log(JSON.stringify({ home, session: mecha.sessionId, runs }, null, 2));
