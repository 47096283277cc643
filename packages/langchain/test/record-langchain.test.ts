// Real LangChain.js runs (@langchain/core 1.4 runnables, tools and the fake chat model it ships
// for tests: there is no network here), recorded through the callback handler into a real home
// and read back through @mecha/stores and @mecha/appraisal-core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, type ToolMessage } from '@langchain/core/messages';
import { RunnableLambda } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { appraiseRun, type TranscriptEvent } from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordLangChain } from '../src/index.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-langchain-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const readFile = tool(async (input: { path: string }) => `rows of ${input.path}`, {
  name: 'read_file',
  description: 'Reads a file.',
  schema: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  },
});

async function transcript(sessionId: string): Promise<TranscriptEvent[]> {
  const read = await homePorts(openHome(home)).sessions.transcript(sessionId);
  expect(read.state).toBe('read');
  return read.state === 'unreadable' ? [] : [...read.records];
}

/** A small agent loop as a runnable: ask the model, run the tool it names, ask again. */
function agentLoop(model: FakeListChatModel) {
  return RunnableLambda.from(async (question: string, config) => {
    const first = await model.invoke([new HumanMessage(question)], config);
    // A tool call as a model reports it; invoked this way the tool answers with a ToolMessage.
    const invoke = readFile.invoke.bind(readFile) as (
      input: unknown,
      options: unknown,
    ) => Promise<ToolMessage>;
    const output = await invoke(
      { type: 'tool_call', id: 'call-1', name: 'read_file', args: { path: 'totals.csv' } },
      config,
    );
    const answer = await model.invoke(
      [new HumanMessage(question), first, new AIMessage('reading'), output],
      config,
    );
    return answer.content;
  });
}

describe('recordLangChain', () => {
  it('records a chain with a model, a tool and its result as one run', async () => {
    const warnings: string[] = [];
    const mecha = recordLangChain({ home, surface: 'cli', warn: (line) => warnings.push(line) });
    const model = new FakeListChatModel({ responses: ['I will read totals.csv.', 'Sent.'] });
    const answer = await agentLoop(model).invoke('Send the totals.', {
      callbacks: [mecha.handler],
    });
    expect(answer).toBe('Sent.');
    await mecha.flushed();
    expect(warnings).toEqual([]);
    const events = await transcript(mecha.sessionId);
    expect(events.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'message',
      'tool_call',
      'tool_result',
      'message',
      'run_end',
    ]);
    expect(events[1]).toMatchObject({ role: 'owner', text: 'Send the totals.' });
    expect(events[2]).toMatchObject({ role: 'assistant', text: 'I will read totals.csv.' });
    expect(events[3]).toMatchObject({ tool: 'read_file', call_id: 'call-1' });
    expect(events[4]).toMatchObject({ call_id: 'call-1', status: 'ok' });
    expect(events.at(-1)).toMatchObject({ stop_cause: 'completed' });
    expect(events.some((event) => event.type === 'intervention')).toBe(false);
  });

  it('records a chat model called alone as its own run', async () => {
    const mecha = recordLangChain({ home });
    const model = new FakeListChatModel({ responses: ['Hello.'] });
    await model.invoke([new HumanMessage('Hi.')], { callbacks: [mecha.handler] });
    await mecha.flushed();
    const events = await transcript(mecha.sessionId);
    expect(events.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'message',
      'run_end',
    ]);
  });

  it('records an aborted run as the owner stopping it', async () => {
    const mecha = recordLangChain({ home });
    const controller = new AbortController();
    const model = new FakeListChatModel({ responses: ['Working.', 'Never.'] });
    const loop = RunnableLambda.from(async (question: string, config) => {
      await model.invoke([new HumanMessage(question)], config);
      controller.abort();
      return model.invoke([new HumanMessage(question)], config);
    });
    await expect(
      loop.invoke('Go.', { callbacks: [mecha.handler], signal: controller.signal }),
    ).rejects.toThrow();
    await mecha.flushed();
    const events = await transcript(mecha.sessionId);
    expect(events.filter((event) => event.type === 'intervention')).toEqual([
      expect.objectContaining({ kind: 'stop' }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'stopped' });
    expect(appraiseRun(events).valence.negative).toBeGreaterThan(0);
  });

  it('runs unrecorded, with one warning, when the home is missing', async () => {
    const warnings: string[] = [];
    const mecha = recordLangChain({
      home: join(home, 'absent'),
      warn: (line) => warnings.push(line),
    });
    const model = new FakeListChatModel({ responses: ['One.', 'Two.'] });
    await model.invoke([new HumanMessage('1')], { callbacks: [mecha.handler] });
    await model.invoke([new HumanMessage('2')], { callbacks: [mecha.handler] });
    await mecha.flushed();
    expect(warnings).toHaveLength(1);
  });
});
