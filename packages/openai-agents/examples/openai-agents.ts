// An OpenAI Agents SDK app recorded into a mecha home: the setup is the lines of
// docs/adapters.md, and the model is a small class implementing the SDK's `Model` interface that
// answers from a script (the SDK ships no mock model), so it runs with no network or key. The
// agent reads a file, then asks to send mail through a tool that needs approval; the owner
// rejects it through the SDK's own `state.reject` and the run resumes. It uses $MECHA_HOME when
// set, a fresh temporary home otherwise, and prints the appraisal read back.
// Run it with `npx tsx examples/openai-agents.ts` from packages/openai-agents after `pnpm build`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appraiseRun } from '@mecha/appraisal-core';
import { recordOpenAIAgents } from '@mecha/openai-agents';
import { homePorts, openHome } from '@mecha/stores';
import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelResponse,
  Runner,
  tool,
  Usage,
} from '@openai/agents-core';

const home = process.env.MECHA_HOME ?? mkdtempSync(join(tmpdir(), 'mecha-example-'));
const call = (callId: string, name: string, args: object): AgentOutputItem => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});
const script: AgentOutputItem[][] = [
  [call('c1', 'read_file', { path: 'totals.csv' })],
  [call('c2', 'send_mail', { to: 'lakeside@example.com' })],
  // The model claims approval: words are never taken for the owner's act.
  [
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'You approved it, so it is sent.' }],
    },
  ],
];
class ScriptedModel implements Model {
  async getResponse(): Promise<ModelResponse> {
    const usage = new Usage({ requests: 1, inputTokens: 50, outputTokens: 5, totalTokens: 55 });
    return { usage, output: script.shift() ?? [] };
  }
  // biome-ignore lint/correctness/useYield: this example never streams.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in this example');
  }
}
const parameters = (name: string) => ({
  type: 'object' as const,
  properties: { [name]: { type: 'string' as const } },
  required: [name],
  additionalProperties: false as const,
});
const agent = new Agent({
  name: 'front',
  instructions: 'Help the owner.',
  model: new ScriptedModel(),
  tools: [
    tool({
      name: 'read_file',
      description: 'Reads a file.',
      parameters: parameters('path'),
      strict: true,
      execute: async (input) => `rows of ${(input as { path: string }).path}`,
    }),
    tool({
      name: 'send_mail',
      description: 'Sends mail.',
      parameters: parameters('to'),
      strict: true,
      needsApproval: true,
      execute: async () => 'sent',
    }),
  ],
});

// The setup of docs/adapters.md: one recorder per conversation, each run handed to it.
const mecha = recordOpenAIAgents({ surface: 'web', home });
const runner = new Runner({ tracingDisabled: true });
const input = 'Send Lakeside the totals.';
const result = await mecha.run(runner, input, () => runner.run(agent, input));
// The app shows the approval to the owner, who rejects it; the run resumes from its state.
for (const waiting of result.interruptions) result.state.reject(waiting);
await mecha.run(runner, result.state, () => runner.run(agent, result.state));

// Read the session back from the home, and appraise each run.
const read = await homePorts(openHome(home)).sessions.transcript(mecha.sessionId);
if (read.state !== 'read') throw new Error('the session could not be read back');
const runIds = [...new Set(read.records.map((event) => event.run_id))];
const runs = runIds.map((runId) => {
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
