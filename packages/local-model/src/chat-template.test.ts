import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalModel, type LocalModel } from './local-model.js';

// A tiny random-weight GGUF that carries a chat template in its metadata, as real instruct
// GGUFs do: prompts go through that template, not a guess.
const chatml =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

let dir: string;
let model: LocalModel;
let modelPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mecha-chat-template-'));
  const path = join(dir, 'tiny-chat.gguf');
  modelPath = path;
  await writeTinyLlamaGguf({ path, seed: 7, chatTemplate: chatml });
  model = createLocalModel({ path, threads: 1, gpu: false, contextSize: 4_096 });
});

afterAll(async () => {
  await model?.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('a GGUF with its own chat template', () => {
  it('renders system, earlier turns and the question through that template', async () => {
    const info = await model.load();
    expect(info.chatWrapper).toBe('ChatML');
    const rendered = await model.renderChat({
      system: 'You distil sessions.',
      earlier: [{ user: 'Session one.', model: '{"skip":true}' }],
      user: 'Follow-up question.',
    });
    expect(rendered.text).toContain('<|im_start|>system\nYou distil sessions.<|im_end|>');
    expect(rendered.text).toContain('<|im_start|>assistant\n{"skip":true}<|im_end|>');
    expect(
      rendered.text.endsWith(
        '<|im_start|>user\nFollow-up question.<|im_end|>\n<|im_start|>assistant\n',
      ),
    ).toBe(true);
    expect(rendered.tokens).toBeGreaterThan((await model.countTokens(rendered.text)) - 2);
  });

  it('caps the context asked for at the trained one, with a warning', async () => {
    const info = await model.load();
    expect(info.trainContextSize).toBe(2_048);
    expect(info.contextSize).toBe(2_048);
    expect(await model.contextSize()).toBe(2_048);
    expect(info.warnings).toEqual([
      'the context size asked for (4096 tokens) is more than the model supports (2048, the context it was trained with): 2048 is used',
    ]);
  });

  it('uses the context asked for when it fits, and caps a caller’s default quietly', async () => {
    const fits = createLocalModel({ path: modelPath, threads: 1, gpu: false, contextSize: 1_024 });
    const byDefault = createLocalModel({
      path: modelPath,
      threads: 1,
      gpu: false,
      defaultContextSize: 16_384,
    });
    try {
      const small = await fits.load();
      expect(small).toMatchObject({ contextSize: 1_024, warnings: [] });
      expect(await fits.contextSize()).toBe(1_024);
      const capped = await byDefault.load();
      expect(capped).toMatchObject({ contextSize: 2_048, warnings: [] });
    } finally {
      await fits.dispose();
      await byDefault.dispose();
    }
  });

  it('counts tokens in the model’s own vocabulary: CJK text costs its UTF-8 bytes here', async () => {
    expect(await model.countTokens('会议')).toBeGreaterThanOrEqual(6);
    expect(await model.countTokens('abc')).toBeLessThanOrEqual(3);
  });

  it('decodes under a grammar with a repeat penalty that spares the structure', async () => {
    const result = await model.complete({
      prompt: { system: 'Answer in JSON.', user: 'Go.' },
      grammar: { gbnf: 'root ::= "{\\"a\\":\\"" [a-z]{1,8} "\\",\\"b\\":\\"" [a-z]{1,8} "\\"}"' },
      maxTokens: 64,
      repeatPenalty: 1.3,
    });
    expect(result.stopReason).toBe('grammar');
    expect(result.text).toMatch(/^\{"a":"[a-z]{1,8}","b":"[a-z]{1,8}"\}$/);
  });
});
