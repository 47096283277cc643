import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { createLocalModel, type LocalModel } from '@mecha/local-model';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInterpretationGrammar } from './interpretation-grammar.js';
import { parseInterpretation } from './parse-interpretation.js';
import { parseQuotes } from './parse-quotes.js';
import { interpretPrompt, quotePrompt } from './prompts.js';
import { buildQuoteGrammar } from './quote-grammar.js';

// The real path: node-llama-cpp loads a tiny random-weight GGUF generated here, and both calls
// run under the hand-written grammars through the model's chat template. The model knows
// nothing, so whatever it writes is what the grammar allowed: if every answer passes the
// independent parser, the grammar (not the model) made it valid. One thread: see local-model.
let dir: string;
let model: LocalModel;
const maxTokens = 1400;
const sourceCount = Number(process.env.APPRAISER_PROPERTY_RUNS ?? 200);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mecha-appraiser-gguf-'));
  const path = join(dir, 'tiny.gguf');
  await writeTinyLlamaGguf({ path, seed: 15, contextLength: 4096 });
  // The prompts' instructions alone are ~900 tokens of this byte-level vocabulary: a 4096-token
  // context leaves room for the longest answers the grammars allow.
  model = createLocalModel({ path, threads: 1, gpu: false, contextSize: 4096 });
  await model.load();
});

afterAll(async () => {
  await model?.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** Reports: words, punctuation, quotes, backslashes, tabs, newlines and some non-ASCII. */
const reportText = fc
  .array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(
          'Bob',
          'fixed',
          'the',
          'build',
          'will',
          'pay',
          'late',
          'task',
          'A-7',
          'saved',
          'broke',
        ),
      },
      { weight: 3, arbitrary: fc.constantFrom(' ', ' ', ', ', '. ') },
      { weight: 1, arbitrary: fc.constantFrom('"', '\\', '\t', '\n', 'é', '→', '✓', '{', '}') },
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((parts) => parts.join(''))
  .filter((text) => text.trim() !== '');

const source = (text: string) => ({ text, owner: 'alice', subject: 'bob' });

describe('both grammars on the tiny GGUF', () => {
  it('makes every answer over 200 random reports pass the independent parser', async () => {
    // fast-check draws the reports; all call 1s run first, then all call 2s, so that each
    // call reuses the evaluated system prompt of the one before (prefix reuse, not batching).
    const cases = fc.sample(fc.tuple(reportText, fc.boolean(), fc.nat()), {
      numRuns: sourceCount,
      seed: 2026,
    });
    const firsts: { text: string; quotes: readonly string[] }[] = [];
    for (const [text, , seed] of cases) {
      const first = await model.complete({
        prompt: quotePrompt(source(text)),
        grammar: { gbnf: buildQuoteGrammar(text) },
        maxTokens,
        temperature: 0.9,
        seed,
      });
      expect(first.stopReason, first.text).toBe('grammar');
      const quotes = parseQuotes(first.text, text);
      expect(quotes, `${JSON.stringify(text)} → ${first.text}`).toMatchObject({ state: 'read' });
      firsts.push({ text, quotes: quotes.state === 'read' ? quotes.value : [] });
    }
    let supported = 0;
    for (const [index, [text, correctionAllowed, seed]] of cases.entries()) {
      const { quotes } = firsts[index] as { quotes: readonly string[] };
      // A descriptor, when one of the quotes occurs exactly once, so task trust is reachable.
      const descriptor = quotes.find((quote) => text.split(quote).length === 2);
      const second = await model.complete({
        prompt: interpretPrompt(source(text), quotes, []),
        grammar: {
          gbnf: buildInterpretationGrammar({
            quotes,
            correctionAllowed,
            ...(descriptor === undefined ? {} : { taskDescriptor: descriptor }),
          }),
        },
        maxTokens,
        temperature: 0.9,
        seed,
      });
      expect(second.stopReason, second.text).toBe('grammar');
      const parsed = parseInterpretation(second.text, {
        source: text,
        quotes,
        correctionTargets: correctionAllowed ? 1 : 0,
        ...(descriptor === undefined ? {} : { taskId: 'T-1', taskDescriptor: descriptor }),
      });
      expect(parsed, second.text).toMatchObject({ state: 'read' });
      if (parsed.state === 'read' && parsed.value.support === 1) supported += 1;
    }
    expect(cases).toHaveLength(sourceCount);
    // The grammar leaves the model real choices: both branches are taken.
    expect(supported).toBeGreaterThan(0);
    expect(supported).toBeLessThan(sourceCount);
  }, 600_000);

  it('without the grammars, the same model and prompts give answers the parser refuses', async () => {
    const samples = fc.sample(fc.tuple(reportText, fc.nat()), { numRuns: 30, seed: 15 });
    const firsts = [];
    for (const [text, seed] of samples) {
      const first = await model.complete({
        prompt: quotePrompt(source(text)),
        maxTokens: 64,
        temperature: 0.9,
        seed,
      });
      firsts.push(parseQuotes(first.text, text));
    }
    let accepted = 0;
    for (const [index, [text, seed]] of samples.entries()) {
      const quotes = firsts[index];
      const list = quotes?.state === 'read' ? quotes.value : [];
      const second = await model.complete({
        prompt: interpretPrompt(source(text), list, []),
        maxTokens: 64,
        temperature: 0.9,
        seed,
      });
      const parsed = parseInterpretation(second.text, {
        source: text,
        quotes: list,
        correctionTargets: 0,
      });
      if (quotes?.state === 'read' && parsed.state === 'read') accepted += 1;
    }
    expect(accepted).toBe(0);
  }, 300_000);
});
