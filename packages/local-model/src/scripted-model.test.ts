import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompletionModel } from './completion-model.js';
import { ModelDisposedError } from './model-disposed-error.js';
import { ScriptExhaustedError } from './script-exhausted-error.js';
import { createScriptedModel } from './scripted-model.js';

describe('createScriptedModel', () => {
  it('returns the replies in order and records the prompts and requests', async () => {
    const model = createScriptedModel(['first', 'second']);
    const grammar = { gbnf: 'root ::= "first" | "second"' };
    const a = await model.complete({ prompt: 'p1', maxTokens: 16 });
    const b = await model.complete({ prompt: 'p2', maxTokens: 16, grammar, temperature: 0.5 });
    expect([a.text, a.stopReason]).toEqual(['first', 'eos']);
    expect([b.text, b.stopReason]).toEqual(['second', 'grammar']);
    expect(model.prompts).toEqual(['p1', 'p2']);
    expect(model.requests[1]).toEqual({ prompt: 'p2', maxTokens: 16, grammar, temperature: 0.5 });
    await expect(model.complete({ prompt: 'p3', maxTokens: 16 })).rejects.toSatisfy(
      (error) => ScriptExhaustedError.isInstance(error) && error.replies === 2,
    );
  });

  it('writes a chat prompt through its fixed visible template', async () => {
    const model = createScriptedModel((prompt) => prompt);
    const result = await model.complete({ prompt: { system: 'S', user: 'U' }, maxTokens: 64 });
    expect(result.text).toBe('<system>\nS\n<user>\nU\n<assistant>\n');
    expect(model.prompts).toEqual([result.text]);
  });

  it('stops at the exact token where onToken aborts the signal', async () => {
    const controller = new AbortController();
    const model = createScriptedModel(['abcdefghijklmnop'], {
      onToken: (emitted) => {
        if (emitted === 2) controller.abort();
      },
    });
    const result = await model.complete({ prompt: 'p', maxTokens: 64, signal: controller.signal });
    expect(result).toMatchObject({ text: 'abcdefgh', stopReason: 'aborted' });
  });

  it('computes replies from the prompt', async () => {
    const model = createScriptedModel((prompt) => `{"echo":${JSON.stringify(prompt)}}`);
    const result = await model.complete({ prompt: 'hi', maxTokens: 64 });
    expect(JSON.parse(result.text)).toEqual({ echo: 'hi' });
  });

  it('counts tokens and cuts a reply at maxTokens (four characters a token)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 80 }),
        fc.integer({ min: 1, max: 30 }),
        async (reply, maxTokens) => {
          const model = createScriptedModel([reply]);
          const result = await model.complete({ prompt: 'abcdefgh', maxTokens });
          const chars = Array.from(reply);
          const needed = Math.ceil(chars.length / 4);
          expect(result.tokens.prompt).toBe(3);
          expect(result.tokens.completion).toBe(Math.min(needed, maxTokens));
          if (needed > maxTokens) {
            expect(result.stopReason).toBe('maxTokens');
            expect(result.text).toBe(chars.slice(0, maxTokens * 4).join(''));
          } else {
            expect(result.stopReason).toBe('eos');
            expect(result.text).toBe(reply);
          }
        },
      ),
    );
  });

  it('reports aborted for a signal aborted before the call', async () => {
    const model = createScriptedModel(['never']);
    const result = await model.complete({
      prompt: 'p',
      maxTokens: 8,
      signal: AbortSignal.abort(),
    });
    expect(result).toMatchObject({ text: '', stopReason: 'aborted', tokens: { completion: 0 } });
    expect(model.prompts).toEqual(['p']);
  });

  it('stops mid-reply when aborted, keeping the text so far', async () => {
    const model = createScriptedModel(['x'.repeat(400)], { msPerToken: 1 });
    const controller = new AbortController();
    const counts: number[] = [];
    const pieces: string[] = [];
    const result = await model.complete({
      prompt: 'p',
      maxTokens: 100,
      signal: controller.signal,
      onToken: (count) => {
        counts.push(count);
        if (count === 3) controller.abort();
      },
      onText: (text) => pieces.push(text),
    });
    expect(result.stopReason).toBe('aborted');
    // It stops at the next token: the three tokens before the abort are kept, nothing after.
    expect(counts).toEqual([1, 2, 3]);
    expect(result.tokens.completion).toBe(3);
    expect(result.text).toBe('x'.repeat(12));
    // The text comes a pseudo-token at a time, the same text the result holds.
    expect(pieces).toEqual(['xxxx', 'xxxx', 'xxxx']);
    expect(Object.keys(model.requests[0] ?? {})).not.toContain('onToken');
    expect(Object.keys(model.requests[0] ?? {})).not.toContain('onText');
  });

  it('runs calls one at a time and lets a queued call leave when aborted', async () => {
    const model = createScriptedModel(['a'.repeat(40), 'b'.repeat(40)], { msPerToken: 5 });
    const controller = new AbortController();
    const first = model.complete({ prompt: '1', maxTokens: 50 });
    const second = model.complete({ prompt: '2', maxTokens: 50, signal: controller.signal });
    const third = model.complete({ prompt: '3', maxTokens: 50 });
    controller.abort();
    expect((await second).stopReason).toBe('aborted');
    expect((await first).text).toBe('a'.repeat(40));
    expect((await third).text).toBe('b'.repeat(40));
  });

  it('has a stable identity from its name and implements CompletionModel', async () => {
    const model: CompletionModel = createScriptedModel([], { name: 'distill-test' });
    const identity = await model.identity();
    expect(identity.sha256).toBe(
      createHash('sha256').update('scripted:distill-test').digest('hex'),
    );
    expect(await model.identity()).toEqual(identity);
    await model.dispose();
    await expect(model.complete({ prompt: 'p', maxTokens: 1 })).rejects.toSatisfy(
      ModelDisposedError.isInstance,
    );
  });

  it('refuses a maxTokens that is not a positive integer', async () => {
    const model = createScriptedModel(['x']);
    await expect(model.complete({ prompt: 'p', maxTokens: 0 })).rejects.toThrow(RangeError);
  });
});
