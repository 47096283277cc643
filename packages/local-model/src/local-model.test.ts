import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionResult } from './completion-model.js';
import { GrammarError } from './grammar-error.js';
import { createLocalModel, defaultThreads, type LocalModel } from './local-model.js';
import { ModelDisposedError } from './model-disposed-error.js';
import { ModelLoadError } from './model-load-error.js';
import { PromptTooLongError } from './prompt-too-long-error.js';

// The real path: node-llama-cpp loads a tiny random-weight llama GGUF generated here (never
// committed), decodes with and without a grammar, and aborts. One thread: the model is so
// small that thread hand-offs dominate, and on a busy 2-core machine (turbo runs packages'
// tests side by side) two threads are tens of times slower than one; see README.md.
const threads = 1;

let dir: string;
let path: string;
let model: LocalModel;
const timings = { loadMs: 0, grammar: [] as CompletionResult[], free: [] as CompletionResult[] };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mecha-local-model-'));
  path = join(dir, 'tiny.gguf');
  await writeTinyLlamaGguf({ path, seed: 42 });
  model = createLocalModel({ path, threads, gpu: false });
});

afterAll(async () => {
  await model?.dispose();
  await rm(dir, { recursive: true, force: true });
  const rate = (results: CompletionResult[]) => {
    const tokens = results.reduce((sum, r) => sum + r.tokens.completion, 0);
    const ms = results.reduce((sum, r) => sum + r.timings.promptMs + r.timings.generationMs, 0);
    return `${results.length} generations, ${tokens} tokens, ${((tokens / ms) * 1000).toFixed(0)} tokens/s`;
  };
  console.log(
    [
      `tiny GGUF, threads=${threads}: load ${timings.loadMs.toFixed(0)} ms`,
      `  with JSON-schema grammar: ${rate(timings.grammar)}`,
      `  without grammar:          ${rate(timings.free)}`,
    ].join('\n'),
  );
});

/** A JSON schema with every string and array bounded, so that every generation can finish. */
const schema = {
  type: 'object',
  properties: {
    label: { type: 'string', maxLength: 12 },
    act: { enum: ['released_unchanged', 'edited', 'rejected', 'closed', 'reopened', 'no_act'] },
    confident: { type: 'boolean' },
    consequence: { enum: [0, 1, 2, 3, 4] },
    tags: { type: 'array', items: { type: 'string', maxLength: 6 }, maxItems: 3 },
  },
} as const;

/** Whether `text` is JSON of exactly the schema's shape. */
function matchesSchema(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  const { label, act, confident, consequence, tags } = record;
  return (
    Object.keys(record).join() === 'label,act,confident,consequence,tags' &&
    typeof label === 'string' &&
    Array.from(label).length <= 12 &&
    schema.properties.act.enum.includes(act as never) &&
    typeof confident === 'boolean' &&
    [0, 1, 2, 3, 4].includes(consequence as number) &&
    Array.isArray(tags) &&
    tags.length <= 3 &&
    tags.every((tag) => typeof tag === 'string' && Array.from(tag).length <= 6)
  );
}

const prompt = (i: number) => `Session ${i}: the owner asked for a summary. Appraise it as JSON.\n`;

describe('createLocalModel on a tiny generated GGUF', () => {
  it('loads lazily on the CPU with the threads asked for', async () => {
    const info = await model.load();
    timings.loadMs = info.loadMs;
    expect(info).toMatchObject({ gpu: false, threads, contextSize: 2048, trainContextSize: 2048 });
    expect(info.loadMs).toBeGreaterThan(0);
    expect(await model.load()).toBe(info);
  });

  it('defaults to the machine’s available parallelism, not node-llama-cpp’s 4', async () => {
    expect(defaultThreads()).toBe(availableParallelism());
    const other = createLocalModel({ path, gpu: false });
    try {
      expect((await other.load()).threads).toBe(availableParallelism());
    } finally {
      await other.dispose();
    }
  });

  it('reports load time only to the call that waited for it', async () => {
    const fresh = createLocalModel({ path, threads, gpu: false });
    try {
      const first = await fresh.complete({ prompt: 'a', maxTokens: 2 });
      const second = await fresh.complete({ prompt: 'a', maxTokens: 2 });
      expect(first.timings.loadMs).toBeGreaterThan(0);
      expect(second.timings.loadMs).toBe(0);
    } finally {
      await fresh.dispose();
    }
  });

  it('returns aborted at once when the signal aborts while the model loads', async () => {
    const fresh = createLocalModel({ path, threads, gpu: false });
    try {
      let loadedYet = false;
      const load = fresh.load().then(() => {
        loadedYet = true;
      });
      const controller = new AbortController();
      const call = fresh.complete({ prompt: 'a', maxTokens: 2, signal: controller.signal });
      controller.abort();
      const result = await call;
      expect(result.stopReason).toBe('aborted');
      // It did not wait for the load: the load was still going on when the call returned.
      expect(loadedYet).toBe(false);
      await load;
      // The load itself went on and serves the next call.
      expect((await fresh.complete({ prompt: 'a', maxTokens: 2 })).stopReason).toBe('maxTokens');
    } finally {
      await fresh.dispose();
    }
  });

  it('makes 50 of 50 generations parse as the JSON schema’s grammar', async () => {
    for (let i = 0; i < 50; i++) {
      const result = await model.complete({
        prompt: prompt(i),
        grammar: { jsonSchema: schema },
        maxTokens: 512,
        temperature: 0.9,
        seed: i,
      });
      timings.grammar.push(result);
      expect(result.stopReason, result.text).toBe('grammar');
      expect(matchesSchema(result.text), result.text).toBe(true);
    }
    // Sampling varies: the model is not stuck on one output.
    expect(new Set(timings.grammar.map((r) => r.text)).size).toBeGreaterThan(40);
  });

  it('without the grammar, the same model writes text that is not JSON', async () => {
    let parsed = 0;
    for (let i = 0; i < 50; i++) {
      const result = await model.complete({
        prompt: prompt(i),
        maxTokens: 48,
        temperature: 0.9,
        seed: i,
      });
      timings.free.push(result);
      if (matchesSchema(result.text)) parsed += 1;
      try {
        JSON.parse(result.text);
        parsed += 1;
      } catch {}
    }
    expect(parsed).toBeLessThan(5);
  });

  it('keeps to a GBNF grammar', async () => {
    const gbnf = 'root ::= "{\\"support\\":" [01] ",\\"evidence\\":\\"" [a-z ]{0,10} "\\"}"';
    for (let i = 0; i < 10; i++) {
      const result = await model.complete({
        prompt: prompt(i),
        grammar: { gbnf },
        maxTokens: 64,
        temperature: 0.9,
        seed: i,
      });
      expect(result.stopReason).toBe('grammar');
      expect(result.text).toMatch(/^\{"support":[01],"evidence":"[a-z ]{0,10}"\}$/);
    }
  });

  it('renders a chat prompt through the model’s template, one BOS, under a grammar', async () => {
    const chat = { system: 'You quote reports.', user: 'Report: the build broke.' };
    const plain = await model.complete({ prompt: `${chat.system}\n${chat.user}`, maxTokens: 1 });
    const result = await model.complete({
      prompt: chat,
      grammar: { gbnf: 'root ::= "[" [a-z]{1,5} "]"' },
      maxTokens: 16,
    });
    expect(result.stopReason).toBe('grammar');
    expect(result.text).toMatch(/^\[[a-z]{1,5}\]$/);
    // The template adds its role markers around the two messages.
    expect(result.tokens.prompt).toBeGreaterThan(plain.tokens.prompt);
  });

  it('counts prompt tokens with BOS, stops at maxTokens and times both phases', async () => {
    const result = await model.complete({ prompt: 'abc', maxTokens: 7 });
    expect(result.tokens).toEqual({ prompt: 4, completion: 7 });
    expect(result.stopReason).toBe('maxTokens');
    expect(result.timings.loadMs).toBe(0);
    expect(result.timings.promptMs).toBeGreaterThan(0);
    expect(result.timings.generationMs).toBeGreaterThanOrEqual(0);
  });

  it('is deterministic at temperature 0', async () => {
    const a = await model.complete({ prompt: 'The run went', maxTokens: 24 });
    const b = await model.complete({ prompt: 'The run went', maxTokens: 24 });
    expect(b.text).toBe(a.text);
  });

  it('stops at the next token and reports aborted when the signal aborts mid-generation', async () => {
    const controller = new AbortController();
    const counts: number[] = [];
    const pieces: string[] = [];
    const result = await model.complete({
      prompt: 'Go on forever',
      maxTokens: 1900,
      signal: controller.signal,
      onToken: (count) => {
        counts.push(count);
        if (count >= 5) controller.abort();
      },
      onText: (text) => pieces.push(text),
    });
    expect(result.stopReason).toBe('aborted');
    // The text came as it was generated: its pieces are the result's text, nothing after it.
    expect(pieces.join('')).toBe(result.text);
    // Counted in tokens, not time: nothing is generated after the token that saw the abort.
    expect(counts.at(-1)).toBeGreaterThanOrEqual(5);
    expect(result.tokens.completion).toBe(counts.at(-1));
    expect(counts.filter((count) => count >= 5)).toHaveLength(1);
  });

  it('reports aborted for a signal aborted before the call, without decoding', async () => {
    const result = await model.complete({ prompt: 'x', maxTokens: 5, signal: AbortSignal.abort() });
    expect(result).toMatchObject({ text: '', stopReason: 'aborted', tokens: { completion: 0 } });
  });

  it('refuses a prompt that does not fit the context before decoding', async () => {
    await expect(model.complete({ prompt: 'x'.repeat(2040), maxTokens: 16 })).rejects.toSatisfy(
      (error) =>
        PromptTooLongError.isInstance(error) &&
        error.promptTokens === 2041 &&
        error.contextSize === 2048,
    );
  });

  it('refuses a grammar llama.cpp cannot parse with a GrammarError', async () => {
    await expect(
      model.complete({ prompt: 'x', grammar: { gbnf: 'root ::= undefined-rule' }, maxTokens: 4 }),
    ).rejects.toSatisfy(GrammarError.isInstance);
  });

  it('identifies the model by the sha256 of its file, hashed once', async () => {
    const expected = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    const first = await model.identity();
    expect(first.sha256).toBe(expected);
    expect(await model.identity()).toBe(first);
  });

  it('wraps a file that is not a GGUF in a ModelLoadError naming it', async () => {
    const bad = join(dir, 'not-a-model.gguf');
    await writeFile(bad, 'this is not a GGUF file');
    const broken = createLocalModel({ path: bad, threads, gpu: false });
    await expect(broken.load()).rejects.toSatisfy(
      (error) => ModelLoadError.isInstance(error) && error.path === bad,
    );
    await broken.dispose();
  });

  it('rejects completions after dispose', async () => {
    const fresh = createLocalModel({ path, threads, gpu: false });
    await fresh.complete({ prompt: 'a', maxTokens: 1 });
    await fresh.dispose();
    await expect(fresh.complete({ prompt: 'a', maxTokens: 1 })).rejects.toSatisfy(
      ModelDisposedError.isInstance,
    );
  });
});
