import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { createLocalModel, type LocalModel } from '@mecha/local-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../__fixtures__/graph-home.js';
import type { Correction } from './corrections.js';
import {
  judgmentGrammar,
  judgmentPrompt,
  lessonGrammar,
  lessonPrompt,
  parseJudgmentReply,
  parseLessonReply,
} from './lesson-prompt.js';

// The real decode path: node-llama-cpp loads a tiny random-weight GGUF generated here and
// samples under the reflector's own grammars, through the chat path reflect uses. Random weights
// write nonsense, so what is checked is the shape: every reply must parse, and both branches of
// each grammar are taken. One thread: on a busy small machine more are far slower.
let folder: { folder: string; remove: () => void };
let model: LocalModel;

beforeAll(async () => {
  folder = tempFolder('mecha-reflect-gguf-');
  const path = join(folder.folder, 'tiny.gguf');
  await writeTinyLlamaGguf({ path, seed: 11, contextLength: 4_096 });
  model = createLocalModel({ path, threads: 1, gpu: false, contextSize: 4_096 });
});

afterAll(async () => {
  await model?.dispose();
  folder?.remove();
});

const followUp: Correction = {
  id: 'follow_up:s-1:m-2',
  kind: 'follow_up',
  cite: { kind: 'turn', id: 'run-2:3' },
  at: '2026-09-20T09:11:00Z',
  sessionId: 's-1',
  words: 'That is wrong: you never ran the tests. Always run pnpm test first.',
  situation: { sessionId: 's-1', tools: ['shell'] },
  clean: true,
  message: { id: 'm-2', turn: 3 },
};

describe('the reflector’s grammars on a real model', () => {
  it('makes 16 of 16 judgments of a follow-up parse, both answers taken', {
    timeout: 240_000,
  }, async () => {
    const answers = new Set<boolean>();
    for (let i = 0; i < 16; i++) {
      const result = await model.complete({
        prompt: judgmentPrompt(followUp),
        grammar: { gbnf: judgmentGrammar() },
        // The grammar's worst case at about a token per character.
        maxTokens: 1_024,
        temperature: 0.9,
        seed: i,
      });
      expect(result.stopReason, result.text).toBe('grammar');
      const parsed = parseJudgmentReply(result.text);
      expect(parsed.state, result.text).toBe('read');
      if (parsed.state === 'read') answers.add(parsed.value.correction);
    }
    expect(answers).toEqual(new Set([true, false]));
  });

  it('makes 12 of 12 lessons parse', { timeout: 240_000 }, async () => {
    for (let i = 0; i < 12; i++) {
      const result = await model.complete({
        prompt: lessonPrompt(followUp, undefined),
        grammar: { gbnf: lessonGrammar() },
        maxTokens: 1_024,
        temperature: 0.9,
        seed: i,
      });
      expect(result.stopReason, result.text).toBe('grammar');
      expect(parseLessonReply(result.text).state, result.text).toBe('read');
    }
  });
});
