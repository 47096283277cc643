import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { createLocalModel, type LocalModel } from '@mecha/local-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation, events } from './__fixtures__/events.js';
import { tempFolder } from './__fixtures__/graph-home.js';
import { type TestHome, testHome, testNow } from './__fixtures__/test-home.js';
import { distill } from './distill/distill.js';
import { distillGrammar } from './distill-grammar.js';
import { parseDistillReply } from './distill-reply.js';
import { factsGrammarSchema, factsPrompt, groundFacts, parseFactsAnswer } from './extract-facts.js';
import { appraisalGrammarSchema, parseAppraisalAnswer } from './text-appraisal.js';

// The real decode path: node-llama-cpp loads a tiny random-weight GGUF generated here and
// samples under distill's own grammars. Random weights write nonsense, so what is checked is
// the shape: every reply must parse. One thread: on a busy small machine more are far slower.
const threads = 1;

let folder: { folder: string; remove: () => void };
let model: LocalModel;
let made: TestHome | undefined;
const lengths: number[] = [];

beforeAll(async () => {
  folder = tempFolder('mecha-distill-gguf-');
  const path = join(folder.folder, 'tiny.gguf');
  await writeTinyLlamaGguf({ path, seed: 7, contextLength: 16_384 });
  // The tiny vocabulary spends about a token per character, so the distiller's instructions, a
  // reply and the follow-up need a context well past 2,048: the model is made saying it has one.
  model = createLocalModel({ path, threads, gpu: false, contextSize: 16_384 });
});

afterAll(async () => {
  await model?.dispose();
  made?.remove();
  folder?.remove();
  if (lengths.length > 0) {
    const total = lengths.reduce((sum, length) => sum + length, 0);
    console.log(
      `tiny GGUF under the distill grammar: ${lengths.length} replies, ${total} tokens in all, longest ${Math.max(...lengths)}`,
    );
  }
});

const prompt = (i: number) => `Session ${i}: the owner asked for the totals report.\nAnswer:\n`;

describe('distill’s grammars on a real model', () => {
  it('makes 50 of 50 distiller replies parse', { timeout: 240_000 }, async () => {
    const gbnf = distillGrammar();
    const kinds = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const result = await model.complete({
        prompt: prompt(i),
        grammar: { gbnf },
        // A random model spends about a token per character: room for the grammar's worst case.
        maxTokens: 6_000,
        temperature: 0.9,
        seed: i,
      });
      lengths.push(result.tokens.completion);
      expect(result.stopReason, result.text).toBe('grammar');
      const parsed = parseDistillReply(result.text);
      expect(parsed.state, `${result.text}\n${parsed.state === 'read' ? '' : parsed.reason}`).toBe(
        'read',
      );
      if (parsed.state === 'read') {
        kinds.add(parsed.value.skip ? 'skip' : 'episode');
        if (parsed.value.corrections.length > 0) kinds.add('corrections');
        if (parsed.value.surprises.length > 0) kinds.add('surprises');
      }
    }
    // The grammar's branches were all taken, not one path over and over.
    expect(kinds).toEqual(new Set(['skip', 'episode', 'corrections', 'surprises']));
  });

  it('makes 20 of 20 follow-up answers parse', { timeout: 240_000 }, async () => {
    const jsonSchema = appraisalGrammarSchema();
    for (let i = 0; i < 20; i++) {
      const result = await model.complete({
        prompt: prompt(i),
        grammar: { jsonSchema },
        maxTokens: 6_000,
        temperature: 0.9,
        seed: i,
      });
      expect(result.stopReason, result.text).toBe('grammar');
      expect(parseAppraisalAnswer(result.text).state, result.text).toBe('read');
    }
  });

  it('makes 12 of 12 fact extractions parse, through the chat path', {
    timeout: 240_000,
  }, async () => {
    const jsonSchema = factsGrammarSchema();
    const episode = 'Priya Nair works at Yale Medical and agreed to review the grant.';
    for (let i = 0; i < 12; i++) {
      const result = await model.complete({
        prompt: factsPrompt(episode),
        grammar: { jsonSchema },
        // The grammar's worst case at about a token per character.
        maxTokens: 9_000,
        temperature: 0.9,
        seed: i,
      });
      expect(result.stopReason, result.text).toBe('grammar');
      const parsed = parseFactsAnswer(result.text);
      expect(parsed.state, result.text).toBe('read');
      // Random weights name nothing the episode says: grounding leaves out what they invent.
      if (parsed.state === 'read') {
        const grounded = groundFacts(parsed.value, episode);
        const dropped = Object.values(grounded.dropped).reduce((sum, count) => sum + count, 0);
        expect(grounded.entities.length + grounded.relations.length + dropped).toBe(
          parsed.value.entities.length + parsed.value.relations.length,
        );
      }
    }
  });

  it('distills sessions end to end with the local model, every reply parsing', {
    timeout: 240_000,
  }, async () => {
    made = testHome();
    made.writeSession('20260925T090000-aaaaaaa1', conversation());
    made.writeSession('20260925T100000-bbbbbbb2', [
      ...conversation().slice(0, -1),
      events.end('2026-09-25T10:30:00Z'),
    ]);
    const result = await distill({
      home: made.open(),
      model,
      clock: () => testNow,
      maxTokens: 6_000,
      appraisalMaxTokens: 6_000,
      factsMaxTokens: 9_000,
    });
    expect(result.state).toBe('done');
    if (result.state !== 'done') return;
    const { counts } = result.report;
    expect(counts.model_failed, JSON.stringify(result.report.sessions)).toBe(0);
    expect(counts.pushed + counts.skipped).toBe(2);
    expect(result.report.appraisals.failed).toBe(0);
    expect(result.report.facts.failed).toBe(0);
    expect(result.report.facts.episodes).toBe(counts.pushed);
    expect(made.ledger()).toHaveLength(2);
  });
});
