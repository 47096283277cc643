import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import {
  type ChatPrompt,
  type CompletionModel,
  type CompletionRequest,
  type CompletionResult,
  createLocalModel,
  type LocalModel,
} from '@mecha/local-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from './__fixtures__/events.js';
import { tempFolder } from './__fixtures__/graph-home.js';
import { type TestHome, testHome, testNow } from './__fixtures__/test-home.js';
import { boundTranscript } from './bound-transcript.js';
import { distill } from './distill/distill.js';
import { renderTranscript } from './render-transcript.js';

// The real model path with a GGUF that carries its own chat template (ChatML), as instruct
// models do. Its vocabulary is byte-level, so a CJK character costs three tokens and a line of
// code about one per character: the character bounds alone would overflow its context.
const chatml =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
const contextSize = 4_096;
const maxTokens = 300;

let folder: { folder: string; remove: () => void };
let model: LocalModel;
let made: TestHome | undefined;

beforeAll(async () => {
  folder = tempFolder('mecha-distill-chat-');
  const path = join(folder.folder, 'tiny-chat.gguf');
  await writeTinyLlamaGguf({ path, seed: 11, chatTemplate: chatml, contextLength: contextSize });
  model = createLocalModel({ path, threads: 1, gpu: false, contextSize });
});

afterAll(async () => {
  await model?.dispose();
  made?.remove();
  folder?.remove();
});

/** The local model, recording each request and result on the way through. */
function recording(inner: LocalModel) {
  const calls: { request: CompletionRequest; result: CompletionResult }[] = [];
  const wrapped: CompletionModel = {
    identity: () => inner.identity(),
    countTokens: (text) => inner.countTokens(text),
    contextSize: () => inner.contextSize(),
    complete: async (request) => {
      const result = await inner.complete(request);
      calls.push({ request, result });
      return result;
    },
    dispose: async () => {},
  };
  return { calls, wrapped };
}

const cjk = `开始${'会议记录显示项目延期到下周五，负责人是王芳。'.repeat(220)}结束`;
const code = `BEGIN\n${Array.from({ length: 260 }, (_, i) => `  if (rows[${i}].total !== sum(rows[${i}].items)) { throw new Error("row ${i}: {x}"); }`).join('\n')}\nEND`;

describe('distilling through the GGUF’s chat template with token-counted bounds', () => {
  it('keeps a CJK-heavy and a code-heavy transcript inside the model’s context', {
    timeout: 240_000,
  }, async () => {
    made = testHome();
    const heavy = {
      '20260925T090000-aaaaaaa1': [
        events.start(),
        events.owner('msg-1', cjk),
        events.agent('msg-2', '好的，我会更新计划。'),
        events.end(),
      ],
      '20260925T100000-bbbbbbb2': [
        events.start(),
        events.owner(
          'msg-3',
          'Please check the totals code in the ledger service before the release on Friday, row by row.',
        ),
        events.call('call-1', 'fs_read'),
        events.result('call-1', code),
        events.agent('msg-4', 'The totals code checks every row against the sum of its items.'),
        events.end('2026-09-25T10:30:00Z'),
      ],
    };
    for (const [id, session] of Object.entries(heavy)) made.writeSession(id, session);
    // Characters alone would not do: both fit the 24,000-character bounds whole and overflow.
    for (const session of Object.values(heavy)) {
      const byCharacters = boundTranscript(renderTranscript(session)).text;
      expect(await model.countTokens(byCharacters)).toBeGreaterThan(contextSize);
    }

    const { calls, wrapped } = recording(model);
    const result = await distill({
      home: made.open(),
      model: wrapped,
      clock: () => testNow,
      maxTokens,
      appraise: false,
    });
    expect(result.state).toBe('done');
    if (result.state !== 'done') return;
    for (const session of result.report.sessions) {
      expect(session.reason ?? '').not.toMatch(/exceed the model context/);
    }
    expect(calls, JSON.stringify(result.report.sessions)).toHaveLength(2);
    for (const { request, result: answer } of calls) {
      expect(answer.tokens.prompt + maxTokens).toBeLessThanOrEqual(contextSize);
      const rendered = await model.renderChat(request.prompt as ChatPrompt);
      expect(rendered.text.slice(0, 120)).toMatch(
        /^(BOS)?<\|im_start\|>system\nYou are the distiller of mecha/,
      );
      expect(rendered.text).toMatch(/<\|im_start\|>user\nSession 20260925T/);
      expect(rendered.text).toContain('characters omitted');
    }
    const [first, second] = calls.map((call) => (call.request.prompt as ChatPrompt).user);
    expect(first).toContain('开始');
    expect(first).toContain('好的，我会更新计划。');
    expect(second).toContain('BEGIN');
    expect(second).toContain('--- run ended');
  });
});
