// A real LangGraph graph (@langchain/langgraph 1.7, with its in-memory checkpointer) whose node
// asks the fake chat model @langchain/core ships for tests for a draft and then calls
// `interrupt()` for the owner; the owner answers with `Command({ resume })`. Recorded through
// the callback handler into a real home and read back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import {
  Annotation,
  Command,
  END,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { appraiseRun, type TranscriptEvent } from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordLangChain } from '../src/index.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-langgraph-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

async function transcript(sessionId: string): Promise<TranscriptEvent[]> {
  const read = await homePorts(openHome(home)).sessions.transcript(sessionId);
  expect(read.state).toBe('read');
  return read.state === 'unreadable' ? [] : [...read.records];
}

/** Drafts a reply with the model, then waits on the owner's word before sending it. */
function draftGraph(model: FakeListChatModel) {
  const State = Annotation.Root({
    request: Annotation<string>(),
    draft: Annotation<string>(),
    answer: Annotation<string>(),
  });
  return new StateGraph(State)
    .addNode('write_draft', async (state, config) => {
      const reply = await model.invoke([new HumanMessage(state.request)], config);
      return { draft: String(reply.content) };
    })
    .addNode('ask_owner', (state) => ({
      answer: String(interrupt({ question: 'Send this draft?', draft: state.draft })),
    }))
    .addEdge(START, 'write_draft')
    .addEdge('write_draft', 'ask_owner')
    .addEdge('ask_owner', END)
    .compile({ checkpointer: new MemorySaver() });
}

describe('recordLangChain with LangGraph', () => {
  it('records an interrupt as a parked run and the owner resuming it as a steer', async () => {
    const mecha = recordLangChain({ home, surface: 'cli' });
    // The model's draft claims the owner already approved: words are never taken for an act.
    const graph = draftGraph(new FakeListChatModel({ responses: ['The owner approved: sent.'] }));
    const config = { configurable: { thread_id: 'thread-1' }, callbacks: [mecha.handler] };
    const parked = await graph.invoke({ request: 'Reply to Lakeside.' }, config);
    expect((parked as { __interrupt__?: unknown[] }).__interrupt__).toHaveLength(1);
    await mecha.flushed();
    const resumed = await graph.invoke(new Command({ resume: 'make it shorter' }), config);
    expect(resumed.answer).toBe('make it shorter');
    await mecha.flushed();

    const events = await transcript(mecha.sessionId);
    const runIds = [...new Set(events.map((event) => event.run_id))];
    expect(runIds).toHaveLength(2);
    const [first, second] = runIds.map((id) => events.filter((event) => event.run_id === id));
    expect(first?.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'message',
      'run_end',
    ]);
    expect(first?.at(-1)).toMatchObject({ stop_cause: 'parked' });
    expect(first?.some((event) => event.type === 'intervention')).toBe(false);
    expect(second?.map((event) => event.type)).toEqual(['run_start', 'intervention', 'run_end']);
    expect(second?.[0]).toMatchObject({ resumed: true });
    expect(second?.[1]).toMatchObject({ kind: 'steer' });
    expect(second?.at(-1)).toMatchObject({ stop_cause: 'completed' });
    // The owner's steer reads as a negative; the parked run before it signed nothing.
    expect(appraiseRun(first ?? []).valence.negative).toBe(0);
    expect(appraiseRun(second ?? []).valence.negative).toBeGreaterThan(0);
  });

  it('records a graph that runs through with no interrupt as completed, with no act', async () => {
    const mecha = recordLangChain({ home });
    const model = new FakeListChatModel({ responses: ['Done.'] });
    const State = Annotation.Root({ request: Annotation<string>(), reply: Annotation<string>() });
    const graph = new StateGraph(State)
      .addNode('answer', async (state, config) => ({
        reply: String((await model.invoke([new HumanMessage(state.request)], config)).content),
      }))
      .addEdge(START, 'answer')
      .addEdge('answer', END)
      .compile();
    await graph.invoke({ request: 'Tidy up.' }, { callbacks: [mecha.handler] });
    await mecha.flushed();
    const events = await transcript(mecha.sessionId);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'completed' });
    expect(events.some((event) => event.type === 'intervention')).toBe(false);
  });
});
