// Real AI SDK runs (`generateText`, `streamText` from `ai` 7) against the SDK's own mock model
// (`MockLanguageModelV4` from `ai/test`: there is no network here), recorded into a real home
// on disk and read back through @mecha/stores and @mecha/appraisal-core.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appraiseRun,
  appraiseSession,
  appraiseStep,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordAiSdk } from '../src/index.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-ai-sdk-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const usage = {
  inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 8, text: 8, reasoning: 0 },
};
const toolCall = (id: string, name: string, input: object) => ({
  content: [
    { type: 'tool-call' as const, toolCallId: id, toolName: name, input: JSON.stringify(input) },
  ],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const text = (words: string) => ({
  content: [{ type: 'text' as const, text: words }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage,
  warnings: [],
});

const sent: string[] = [];
const tools = {
  read_file: tool({
    inputSchema: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
    }),
    execute: async ({ path }) => `rows of ${path}`,
  }),
  send_mail: tool({
    inputSchema: jsonSchema<{ to: string }>({
      type: 'object',
      properties: { to: { type: 'string' } },
    }),
    execute: async ({ to }) => {
      sent.push(to);
      return 'sent';
    },
  }),
};

async function transcript(sessionId: string): Promise<TranscriptEvent[]> {
  const read = await homePorts(openHome(home)).sessions.transcript(sessionId);
  expect(read.state).toBe('read');
  return read.state === 'unreadable' ? [] : [...read.records];
}

describe('recordAiSdk with generateText', () => {
  it('records a run with a tool, then the owner denying a parked tool call in the next', async () => {
    sent.length = 0;
    const warnings: string[] = [];
    const recorder = recordAiSdk({ home, surface: 'cli', warn: (line) => warnings.push(line) });
    // The model reads a file, then asks to send mail; the app asks the owner first.
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCall('c1', 'read_file', { path: 'totals.csv' }),
        toolCall('c2', 'send_mail', { to: 'lakeside@example.com' }),
        // The model's text claims approval: it is never read as the owner's act.
        text('The owner approved, so I sent it.'),
      ],
    });
    const first = recorder.run();
    const parked = await generateText({
      model: wrapLanguageModel({ model, middleware: first.middleware }),
      tools,
      toolApproval: { send_mail: 'user-approval' },
      stopWhen: () => false,
      prompt: 'Send Lakeside the totals.',
      ...first.hooks,
    });
    const request = parked.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();

    // The owner says no, through the SDK's own approval response.
    const second = recorder.run();
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Send Lakeside the totals.' },
      ...parked.response.messages,
      {
        role: 'tool',
        content: [
          {
            type: 'tool-approval-response',
            approvalId: request?.type === 'tool-approval-request' ? request.approvalId : '',
            approved: false,
            reason: 'not yet',
          },
        ],
      },
    ];
    const answered = await generateText({
      model: wrapLanguageModel({ model, middleware: second.middleware }),
      tools,
      toolApproval: { send_mail: 'user-approval' },
      messages,
      ...second.hooks,
    });
    expect(answered.text).toBe('The owner approved, so I sent it.');
    expect(sent).toEqual([]);
    expect(warnings).toEqual([]);

    const events = await transcript(recorder.sessionId);
    const firstRun = events.filter((event) => event.run_id === first.runId());
    const secondRun = events.filter((event) => event.run_id === second.runId());
    expect(firstRun.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'message',
      'tool_call',
      'tool_result',
      'message',
      'tool_call',
      'run_end',
    ]);
    expect(firstRun.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'parked' });
    expect(firstRun.find((event) => event.type === 'tool_call')).toMatchObject({
      tool: 'read_file',
      call_id: 'c1',
    });
    expect(firstRun.find((event) => event.type === 'message')).toMatchObject({
      role: 'owner',
      text: 'Send Lakeside the totals.',
    });
    expect(secondRun[0]).toMatchObject({ type: 'run_start', resumed: true, surface: 'cli' });
    expect(secondRun.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'intervention',
      'tool_result',
      'message',
      'run_end',
    ]);
    expect(secondRun.find((event) => event.type === 'intervention')).toMatchObject({
      kind: 'deny',
    });
    expect(secondRun.find((event) => event.type === 'tool_result')).toMatchObject({
      call_id: 'c2',
      status: 'denied',
    });
    expect(secondRun.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'completed' });
    // Exactly one owner act, from the approval response: the model's "approved" words are not one.
    expect(events.filter((event) => event.type === 'intervention')).toHaveLength(1);

    // Read back: the run's live readout and the session's appraisal both see the denial.
    const reading = appraiseRun(secondRun);
    expect(reading.valence.negative).toBeGreaterThan(0);
    expect(reading.errors.map((error) => error.channel)).toContain('intervention');
    const session = await appraiseSession(homePorts(openHome(home)), recorder.sessionId);
    expect(session.state).toBe('appraised');
    if (session.state === 'appraised') {
      expect(session.reading.valence.negative).toBeGreaterThan(0);
      expect(session.reading.valence.partial).toBe(false);
    }
  });

  it("records the app's own automatic denial as a denied result, not an owner act", async () => {
    const recorder = recordAiSdk({ home });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCall('c9', 'send_mail', { to: 'x@example.com' }), text('Not sent.')],
    });
    const run = recorder.run();
    await generateText({
      model: wrapLanguageModel({ model, middleware: run.middleware }),
      tools,
      toolApproval: { send_mail: 'denied' },
      stopWhen: () => false,
      prompt: 'Mail x.',
      ...run.hooks,
    });
    const events = await transcript(recorder.sessionId);
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
      call_id: 'c9',
      status: 'denied',
    });
    expect(events.some((event) => event.type === 'intervention')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'completed' });
  });

  it("records the SDK's own approval decisions as no owner act, then or in the next call", async () => {
    sent.length = 0;
    const recorder = recordAiSdk({ home });
    // The app's policy decides by itself: mail to example.com is granted, any other denied.
    const toolApproval = {
      send_mail: ({ to }: { to: string }) => (to.endsWith('@example.com') ? 'approved' : 'denied'),
    } as const;
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCall('c1', 'send_mail', { to: 'a@example.com' }),
        toolCall('c2', 'send_mail', { to: 'b@elsewhere.org' }),
        text('One sent, one refused.'),
        text('Nothing more.'),
      ],
    });
    const first = recorder.run();
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: first.middleware }),
      tools,
      toolApproval,
      stopWhen: () => false,
      prompt: 'Mail a and b.',
      ...first.hooks,
    });
    expect(sent).toEqual(['a@example.com']);
    // The conversation goes on with its whole history: the SDK's automatic approval records
    // (a request marked `isAutomatic`, then its response) travel in it.
    const history = result.steps.flatMap((step) => step.response.messages);
    expect(
      history.flatMap((message): unknown[] =>
        Array.isArray(message.content) ? message.content : [],
      ),
    ).toContainEqual(expect.objectContaining({ type: 'tool-approval-request', isAutomatic: true }));
    const second = recorder.run();
    await generateText({
      model: wrapLanguageModel({ model, middleware: second.middleware }),
      tools,
      toolApproval,
      messages: [
        { role: 'user', content: 'Mail a and b.' },
        ...history,
        { role: 'user', content: 'Anything else?' },
      ],
      ...second.hooks,
    });

    const events = await transcript(recorder.sessionId);
    expect(events.filter((event) => event.type === 'intervention')).toEqual([]);
    expect(events.filter((event) => event.type === 'tool_result')).toEqual([
      expect.objectContaining({ run_id: first.runId(), call_id: 'c1', status: 'ok' }),
      expect.objectContaining({ run_id: first.runId(), call_id: 'c2', status: 'denied' }),
    ]);
    // Nothing waited on the owner: both runs completed, none parked.
    expect(events.filter((event) => event.type === 'run_end')).toEqual([
      expect.objectContaining({ run_id: first.runId(), stop_cause: 'completed' }),
      expect.objectContaining({ run_id: second.runId(), stop_cause: 'completed' }),
    ]);
    const session = await appraiseSession(homePorts(openHome(home)), recorder.sessionId);
    expect(session.state).toBe('appraised');
    if (session.state === 'appraised') {
      expect(session.reading.errors.filter((error) => error.channel === 'intervention')).toEqual(
        [],
      );
      expect(session.reading.valence.negative).toBe(0);
    }
  });

  it('records the turn the owner stopped at, with the stop', async () => {
    const recorder = recordAiSdk({ home });
    const controller = new AbortController();
    let calls = 0;
    // The first step reads a file; the owner presses stop while the model works on the second.
    const model = new MockLanguageModelV4({
      doGenerate: async ({ abortSignal }) => {
        calls += 1;
        if (calls === 1) return toolCall('c1', 'read_file', { path: 'a.csv' });
        controller.abort();
        throw abortSignal?.reason ?? new Error('aborted');
      },
    });
    const run = recorder.run();
    await expect(
      generateText({
        model: wrapLanguageModel({ model, middleware: run.middleware }),
        tools,
        stopWhen: () => false,
        prompt: 'Read a.',
        abortSignal: controller.signal,
        ...run.hooks,
      }),
    ).rejects.toThrow();
    await run.flushed();
    const events = await transcript(recorder.sessionId);
    expect(events.filter((event) => event.type === 'intervention')).toEqual([
      expect.objectContaining({ kind: 'stop', turn: 1 }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'stopped', turns: 1 });
    // Read back: the owner's stop is signed once, citing that turn.
    const stops = appraiseRun(events).entries.filter((entry) => entry.row === 'ownerStop');
    expect(stops.map((entry) => entry.error.cite)).toEqual([{ kind: 'turn', turn: 1 }]);
  });

  it("records a tool's thrown error as an error result", async () => {
    const recorder = recordAiSdk({ home });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCall('c1', 'read_file', { path: 'gone.csv' }), text('It failed.')],
    });
    const failing = {
      read_file: tool({
        inputSchema: jsonSchema<{ path: string }>({
          type: 'object',
          properties: { path: { type: 'string' } },
        }),
        execute: async ({ path }): Promise<string> => {
          throw new Error(`no such file: ${path}`);
        },
      }),
    };
    const run = recorder.run();
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: run.middleware }),
      tools: failing,
      stopWhen: () => false,
      prompt: 'Read gone.csv.',
      ...run.hooks,
    });
    // The SDK reports the throw as a `tool-error` part of the step.
    expect(result.steps[0]?.content.map((part) => part.type)).toContain('tool-error');
    const events = await transcript(recorder.sessionId);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results).toEqual([expect.objectContaining({ call_id: 'c1', status: 'error' })]);
    expect(results[0]).not.toHaveProperty('result_digest');
    // Read back: the step's appraisal counts the failed call.
    const start = events.find((event) => event.type === 'run_start');
    const step = appraiseStep('read', start, events);
    expect(step.calls).toBe(1);
    expect(step.failedCalls).toBe(1);
  });

  it('records an abort as the owner stopping the run', async () => {
    const recorder = recordAiSdk({ home });
    const controller = new AbortController();
    const model = new MockLanguageModelV4({
      doGenerate: async ({ abortSignal }) => {
        controller.abort();
        throw abortSignal?.reason ?? new Error('aborted');
      },
    });
    const run = recorder.run();
    await expect(
      generateText({
        model: wrapLanguageModel({ model, middleware: run.middleware }),
        prompt: 'Go.',
        abortSignal: controller.signal,
        ...run.hooks,
      }),
    ).rejects.toThrow();
    await run.flushed();
    const events = await transcript(recorder.sessionId);
    expect(events.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'intervention',
      'run_end',
    ]);
    expect(events[2]).toMatchObject({ kind: 'stop' });
    expect(events[3]).toMatchObject({ stop_cause: 'stopped' });
  });
});

describe('recordAiSdk with streamText', () => {
  it('records a streamed answer, and an abort mid-stream as a stop', async () => {
    const recorder = recordAiSdk({ home });
    const controller = new AbortController();
    const model = new MockLanguageModelV4({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          start(stream) {
            stream.enqueue({ type: 'stream-start', warnings: [] });
            stream.enqueue({ type: 'text-start', id: 't' });
            stream.enqueue({ type: 'text-delta', id: 't', delta: 'Working on it' });
            abortSignal?.addEventListener('abort', () => stream.error(abortSignal.reason));
          },
        }),
      }),
    });
    const run = recorder.run();
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: run.middleware }),
      prompt: 'Summarise the thread.',
      abortSignal: controller.signal,
      ...run.hooks,
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') controller.abort();
    }
    await run.flushed();
    const events = await transcript(recorder.sessionId);
    expect(events.filter((event) => event.type === 'intervention')).toEqual([
      expect.objectContaining({ kind: 'stop' }),
    ]);
    expect(events.filter((event) => event.type === 'run_end')).toEqual([
      expect.objectContaining({ stop_cause: 'stopped' }),
    ]);
  });

  it('records a finished stream', async () => {
    const recorder = recordAiSdk({ home });
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream({
          start(stream) {
            stream.enqueue({ type: 'stream-start', warnings: [] });
            stream.enqueue({ type: 'text-start', id: 't' });
            stream.enqueue({ type: 'text-delta', id: 't', delta: 'All done.' });
            stream.enqueue({ type: 'text-end', id: 't' });
            stream.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage,
            });
            stream.close();
          },
        }),
      }),
    });
    const run = recorder.run();
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: run.middleware }),
      prompt: 'Finish up.',
      ...run.hooks,
    });
    expect(await result.text).toBe('All done.');
    await run.flushed();
    const events = await transcript(recorder.sessionId);
    expect(events.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'message',
      'run_end',
    ]);
    expect(events[2]).toMatchObject({ role: 'assistant', text: 'All done.', prompt_tokens: 120 });
  });
});

describe('a home that cannot be recorded into', () => {
  it('a missing home: the agent runs, one warning, nothing created', async () => {
    const missing = join(home, 'not-here');
    const warnings: string[] = [];
    const recorder = recordAiSdk({ home: missing, warn: (line) => warnings.push(line) });
    const model = new MockLanguageModelV4({ doGenerate: [text('Fine.'), text('Again.')] });
    for (let index = 0; index < 2; index += 1) {
      const run = recorder.run();
      const result = await generateText({
        model: wrapLanguageModel({ model, middleware: run.middleware }),
        prompt: 'Hi.',
        ...run.hooks,
      });
      expect(result.text).toBe(index === 0 ? 'Fine.' : 'Again.');
    }
    expect(warnings).toEqual([
      `mecha: no mecha home at ${missing} (run \`mecha init\`), so this session is not recorded; the agent keeps running`,
    ]);
    expect(() => mkdirSync(missing)).not.toThrow();
  });

  it('a store that cannot be written: the agent runs, one warning', async () => {
    // The session store's folder is a file here: every append fails as an I/O error.
    writeFileSync(join(home, 'sessions'), 'not a folder');
    const warnings: string[] = [];
    const recorder = recordAiSdk({ home, warn: (line) => warnings.push(line) });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCall('c1', 'read_file', { path: 'a' }), text('Read it.')],
    });
    const run = recorder.run();
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: run.middleware }),
      tools,
      stopWhen: () => false,
      prompt: 'Read a.',
      ...run.hooks,
    });
    expect(result.text).toBe('Read it.');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^mecha: could not record the run start in .* so recording stopped; the agent keeps running$/,
    );
  });
});
