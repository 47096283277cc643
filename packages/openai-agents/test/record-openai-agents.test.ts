// Real OpenAI Agents SDK runs (`Runner` from @openai/agents-core 0.20) against a fake model: a
// class implementing the SDK's `Model` interface that answers from a script, since there is no
// network here. Recorded into a real home and read back through @mecha/stores and
// @mecha/appraisal-core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appraiseRun, appraiseSession, type TranscriptEvent } from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import {
  Agent,
  type AgentOutputItem,
  type Model,
  type ModelResponse,
  Runner,
  type RunState,
  tool,
  Usage,
} from '@openai/agents-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenAIAgentsRecorder, recordOpenAIAgents } from '../src/index.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-openai-agents-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

class ScriptedModel implements Model {
  private index = 0;
  constructor(private readonly script: AgentOutputItem[][]) {}
  async getResponse(): Promise<ModelResponse> {
    const output = this.script[this.index] ?? [say('(no more script)')];
    this.index += 1;
    return {
      usage: new Usage({ requests: 1, inputTokens: 50, outputTokens: 5, totalTokens: 55 }),
      output,
      responseId: `response-${this.index}`,
    };
  }
  // biome-ignore lint/correctness/useYield: the tests never stream.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in these tests');
  }
}

const say = (text: string): AgentOutputItem => ({
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text }],
});
const call = (callId: string, name: string, args: object): AgentOutputItem => ({
  type: 'function_call',
  callId,
  name,
  arguments: JSON.stringify(args),
  status: 'completed',
});

const sent: string[] = [];
const readFile = tool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
  strict: true,
  execute: async (input) => `rows of ${(input as { path: string }).path}`,
});
const sendMail = tool({
  name: 'send_mail',
  description: 'Sends mail.',
  parameters: {
    type: 'object',
    properties: { to: { type: 'string' } },
    required: ['to'],
    additionalProperties: false,
  },
  strict: true,
  needsApproval: true,
  execute: async (input) => {
    sent.push((input as { to: string }).to);
    return 'sent';
  },
});

async function transcript(sessionId: string): Promise<TranscriptEvent[]> {
  const read = await homePorts(openHome(home)).sessions.transcript(sessionId);
  expect(read.state).toBe('read');
  return read.state === 'unreadable' ? [] : [...read.records];
}

/** One recorded run, as an app writes it: the runner's own call, handed to the recorder. */
function recorded(
  mecha: OpenAIAgentsRecorder,
  agent: Agent<unknown, 'text'>,
  input: string | RunState<unknown, Agent<unknown, 'text'>>,
  options: { signal?: AbortSignal } = {},
) {
  const runner = new Runner({ tracingDisabled: true });
  return mecha.run(runner, input, () => runner.run(agent, input, options), options);
}

describe('recordOpenAIAgents', () => {
  it('records tools, a run parked on approval, and the owner rejecting it on resume', async () => {
    sent.length = 0;
    const warnings: string[] = [];
    const mecha = recordOpenAIAgents({ home, surface: 'web', warn: (line) => warnings.push(line) });
    const agent = new Agent({
      name: 'front',
      instructions: 'Help the owner.',
      tools: [readFile, sendMail],
      model: new ScriptedModel([
        [call('c1', 'read_file', { path: 'totals.csv' })],
        [call('c2', 'send_mail', { to: 'lakeside@example.com' })],
        // Words claiming approval are never read as the owner's act.
        [say('You approved it, so it is sent.')],
      ]),
    });
    const first = await recorded(mecha, agent, 'Send Lakeside the totals.');
    expect(first.interruptions).toHaveLength(1);
    const waiting = first.interruptions[0];
    if (waiting === undefined) throw new Error('no interruption');
    first.state.reject(waiting);
    const second = await recorded(mecha, agent, first.state);
    expect(second.finalOutput).toBe('You approved it, so it is sent.');
    expect(sent).toEqual([]);
    expect(warnings).toEqual([]);

    const events = await transcript(mecha.sessionId);
    const runIds = [...new Set(events.map((event) => event.run_id))];
    expect(runIds).toHaveLength(2);
    const [one, two] = runIds.map((id) => events.filter((event) => event.run_id === id));
    expect(one?.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'tool_call',
      'tool_result',
      'run_end',
    ]);
    expect(one?.[1]).toMatchObject({ role: 'owner', text: 'Send Lakeside the totals.' });
    expect(one?.[2]).toMatchObject({ tool: 'read_file', call_id: 'c1' });
    expect(one?.at(-1)).toMatchObject({ stop_cause: 'parked' });
    expect(two?.map((event) => event.type)).toEqual([
      'run_start',
      'intervention',
      'tool_result',
      'message',
      'run_end',
    ]);
    expect(two?.[0]).toMatchObject({ resumed: true });
    expect(two?.[1]).toMatchObject({ kind: 'deny' });
    expect(two?.[2]).toMatchObject({ call_id: 'c2', status: 'denied' });
    expect(two?.[3]).toMatchObject({ role: 'assistant', text: 'You approved it, so it is sent.' });
    expect(two?.at(-1)).toMatchObject({ stop_cause: 'completed' });
    expect(events.filter((event) => event.type === 'intervention')).toHaveLength(1);

    expect(appraiseRun(two ?? []).valence.negative).toBeGreaterThan(0);
    const session = await appraiseSession(homePorts(openHome(home)), mecha.sessionId);
    expect(session.state === 'appraised' && session.reading.valence.negative).toBeGreaterThan(0);
  });

  it('records nothing as an owner act when the owner approves', async () => {
    sent.length = 0;
    const mecha = recordOpenAIAgents({ home });
    const agent = new Agent({
      name: 'front',
      instructions: 'Help.',
      tools: [sendMail],
      model: new ScriptedModel([
        [call('m1', 'send_mail', { to: 'a@example.com' })],
        [say('Sent.')],
      ]),
    });
    const first = await recorded(mecha, agent, 'Mail a.');
    const waiting = first.interruptions[0];
    if (waiting === undefined) throw new Error('no interruption');
    first.state.approve(waiting);
    await recorded(mecha, agent, first.state);
    expect(sent).toEqual(['a@example.com']);
    const events = await transcript(mecha.sessionId);
    expect(events.some((event) => event.type === 'intervention')).toBe(false);
    expect(events.filter((event) => event.type === 'tool_result')).toEqual([
      expect.objectContaining({ call_id: 'm1', status: 'ok' }),
    ]);
  });

  it('records a handoff and a guardrail trip', async () => {
    const mecha = recordOpenAIAgents({ home });
    const billing = new Agent({
      name: 'billing',
      instructions: 'Bill.',
      model: new ScriptedModel([[say('Billing here.')]]),
    });
    const front = new Agent({
      name: 'front',
      instructions: 'Route.',
      handoffs: [billing],
      model: new ScriptedModel([[call('h1', 'transfer_to_billing', {})]]),
    });
    const handed = await recorded(mecha, front, 'Bill me.');
    expect(handed.finalOutput).toBe('Billing here.');
    const guarded = new Agent({
      name: 'guarded',
      instructions: 'Help.',
      inputGuardrails: [
        { name: 'no_secrets', execute: async () => ({ tripwireTriggered: true, outputInfo: {} }) },
      ],
      model: new ScriptedModel([[say('Never said.')]]),
    });
    await expect(recorded(mecha, guarded, 'My password is hunter2.')).rejects.toThrow();
    const events = await transcript(mecha.sessionId);
    const counters = events.filter((event) => event.type === 'counter');
    expect(counters.map((event) => event.type === 'counter' && event.name)).toEqual([
      'handoff',
      'guardrail_tripwire',
    ]);
    expect(
      events
        .filter((event) => event.type === 'run_end')
        .map((event) => event.type === 'run_end' && event.stop_cause),
    ).toEqual(['completed', 'error']);
  });

  it('records an abort as the owner stopping the run', async () => {
    const mecha = recordOpenAIAgents({ home });
    const controller = new AbortController();
    const agent = new Agent({
      name: 'front',
      instructions: 'Help.',
      tools: [readFile],
      model: new ScriptedModel([[call('r1', 'read_file', { path: 'a' })], [say('Done.')]]),
    });
    controller.abort();
    await expect(
      recorded(mecha, agent, 'Read a.', { signal: controller.signal }),
    ).rejects.toThrow();
    const events = await transcript(mecha.sessionId);
    expect(events.filter((event) => event.type === 'intervention')).toEqual([
      expect.objectContaining({ kind: 'stop' }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'stopped' });
  });

  it('runs the agent unrecorded, with one warning, when the home is missing', async () => {
    const warnings: string[] = [];
    const mecha = recordOpenAIAgents({
      home: join(home, 'absent'),
      warn: (line) => warnings.push(line),
    });
    const agent = new Agent({
      name: 'front',
      instructions: 'Help.',
      model: new ScriptedModel([[say('Hi.')], [say('Hi again.')]]),
    });
    expect((await recorded(mecha, agent, 'Hi.')).finalOutput).toBe('Hi.');
    expect((await recorded(mecha, agent, 'Hi.')).finalOutput).toBe('Hi again.');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('no mecha home at');
  });
});
