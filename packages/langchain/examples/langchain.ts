// A LangChain.js app recorded into a mecha home: the setup is the lines of docs/adapters.md (one
// handler in `callbacks`), and the model is the fake chat model @langchain/core ships for tests
// (`FakeListChatModel`), so it runs with no network or key. A small agent loop asks the model,
// runs the tool it names and answers; then the owner stops a second run through its signal. It
// uses $MECHA_HOME when set, a fresh temporary home otherwise, and prints the appraisal read back.
// Run it with `npx tsx examples/langchain.ts` from packages/langchain after `pnpm build`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { appraiseRun } from '@mecha/appraisal-core';
import { recordLangChain } from '@mecha/langchain';
import { homePorts, openHome } from '@mecha/stores';

const home = process.env.MECHA_HOME ?? mkdtempSync(join(tmpdir(), 'mecha-example-'));
const readFile = tool(async (input: { path: string }) => `rows of ${input.path}`, {
  name: 'read_file',
  description: 'Reads a file.',
  schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
});
const model = new FakeListChatModel({
  responses: ['I will read totals.csv.', 'Sent.', 'Working.'],
});
const runTool = readFile.invoke.bind(readFile) as (
  call: unknown,
  config: unknown,
) => Promise<ToolMessage>;
const stopped = new AbortController();
const chain = RunnableLambda.from(async (question: string, config) => {
  const first = await model.invoke([new HumanMessage(question)], config);
  if (question === 'Tidy the folder.') stopped.abort(); // the owner presses stop mid-run
  const call = { type: 'tool_call', id: 'call-1', name: 'read_file', args: { path: 'totals.csv' } };
  const output = await runTool(call, config); // invoked with a tool call, a tool answers a ToolMessage
  return (await model.invoke([new HumanMessage(question), first, output], config)).content;
});

// The setup of docs/adapters.md: one recorder per conversation, its handler in `callbacks`.
const mecha = recordLangChain({ surface: 'cli', home });
await chain.invoke('Send the totals.', { callbacks: [mecha.handler] });
await chain
  .invoke('Tidy the folder.', { callbacks: [mecha.handler], signal: stopped.signal })
  .catch(() => undefined); // the stopped run rejects with an AbortError
await mecha.flushed();

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
