import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceLease } from './device-lease.js';
import { createDeviceScheduler } from './device-scheduler.js';
import { createLocalModel, type LocalModel } from './local-model.js';
import { createScriptedModel } from './scripted-model.js';

/** Resolves once `check` holds, polling on the event loop (no wall-clock bound is asserted). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('createDeviceScheduler over the scripted model', () => {
  it('cancels background work within one token of a foreground arrival', async () => {
    const model = createScriptedModel((prompt) => (prompt === 'bg' ? 'x'.repeat(4000) : 'done'), {
      msPerToken: 2,
    });
    const scheduler = createDeviceScheduler(model);
    const background = scheduler.complete({ prompt: 'bg', maxTokens: 1000 }, 'background');
    await until(() => model.emittedTokens >= 3);
    const atArrival = model.emittedTokens;
    const foreground = scheduler.complete({ prompt: 'fg', maxTokens: 10 }, 'foreground');
    const cancelled = await background;
    // The token clock: the background wrote at most the one token already being decoded.
    expect(cancelled.stopReason).toBe('aborted');
    expect(cancelled.preempted).toBe(true);
    expect(cancelled.tokens.completion - atArrival).toBeLessThanOrEqual(1);
    const served = await foreground;
    expect(served).toMatchObject({ text: 'done', preempted: false });
    await scheduler.dispose();
  });

  it('runs waiting foreground calls before waiting background calls', async () => {
    const order: string[] = [];
    const model = createScriptedModel((prompt) => {
      order.push(prompt);
      return 'ok';
    });
    const scheduler = createDeviceScheduler(model);
    const calls = [
      scheduler.complete({ prompt: 'fg1', maxTokens: 4 }, 'foreground'),
      scheduler.complete({ prompt: 'bg1', maxTokens: 4 }, 'background'),
      scheduler.complete({ prompt: 'bg2', maxTokens: 4 }, 'background'),
      scheduler.complete({ prompt: 'fg2', maxTokens: 4 }, 'foreground'),
    ];
    await Promise.all(calls);
    expect(order).toEqual(['fg1', 'fg2', 'bg1', 'bg2']);
    await scheduler.dispose();
  });

  it('never cancels foreground work for other foreground work', async () => {
    const model = createScriptedModel(['abcdefghijkl', 'z'], { msPerToken: 1 });
    const scheduler = createDeviceScheduler(model);
    const first = scheduler.complete({ prompt: 'a', maxTokens: 10 }, 'foreground');
    const second = scheduler.complete({ prompt: 'b', maxTokens: 10 }, 'foreground');
    expect((await first).stopReason).toBe('eos');
    expect((await second).text).toBe('z');
    await scheduler.dispose();
  });

  it('embeddings take the device lease at their priority, in turn with completions', async () => {
    const model = Object.assign(
      createScriptedModel(() => 'ok'),
      {
        embedded: 0,
        embed: async (texts: readonly string[]) => {
          model.embedded += 1;
          return texts.map(() => [1]);
        },
      },
    );
    const asked: string[] = [];
    let grant: (() => void) | undefined;
    const lease: DeviceLease = {
      directory: 'unused',
      acquire: (priority) => {
        asked.push(priority);
        return new Promise((resolve) => {
          grant = () => resolve(() => asked.push('released'));
        });
      },
      foregroundWanted: () => false,
      holder: () => undefined,
    };
    const scheduler = createDeviceScheduler(model, { lease });
    const vectors = scheduler.at('background').embed?.(['a', 'b']);
    await until(() => grant !== undefined);
    // Waiting for the lease: the model has not embedded anything yet.
    expect(asked).toEqual(['background']);
    expect(model.embedded).toBe(0);
    grant?.();
    expect(await vectors).toEqual([[1], [1]]);
    // Given back once the embedding ended.
    await until(() => asked.length === 2);
    expect(asked).toEqual(['background', 'released']);
    await scheduler.dispose();
  });

  it('passes token counting and the context size through a priority view', async () => {
    const model = createScriptedModel(['ok'], { contextSize: 2048 });
    const scheduler = createDeviceScheduler(model);
    const view = scheduler.at('foreground');
    expect(await view.contextSize?.()).toBe(2048);
    expect(await view.countTokens?.('abcdefgh')).toBe(await model.countTokens?.('abcdefgh'));
    await scheduler.dispose();
  });

  it('keeps the caller’s own abort distinct from a preemption', async () => {
    const model = createScriptedModel(['x'.repeat(400)], { msPerToken: 1 });
    const scheduler = createDeviceScheduler(model);
    const controller = new AbortController();
    const call = scheduler.complete(
      { prompt: 'a', maxTokens: 100, signal: controller.signal },
      'background',
    );
    await until(() => model.emittedTokens >= 1);
    controller.abort();
    expect(await call).toMatchObject({ stopReason: 'aborted', preempted: false });
    await scheduler.dispose();
  });
});

describe('createDeviceScheduler over the tiny GGUF', () => {
  let dir: string;
  let model: LocalModel;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mecha-scheduler-'));
    const path = join(dir, 'tiny.gguf');
    await writeTinyLlamaGguf({ path, seed: 7 });
    model = createLocalModel({ path, threads: 1, gpu: false });
    await model.load();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('preempts a long background generation for a foreground chat prompt', async () => {
    const scheduler = createDeviceScheduler(model);
    const background = scheduler.complete(
      { prompt: 'Go on forever', maxTokens: 1900 },
      'background',
    );
    await until(() => scheduler.running() === 'background');
    const foreground = scheduler.complete(
      { prompt: { system: 'Answer briefly.', user: 'Say yes.' }, maxTokens: 8 },
      'foreground',
    );
    const cancelled = await background;
    expect(cancelled).toMatchObject({ stopReason: 'aborted', preempted: true });
    expect(cancelled.tokens.completion).toBeLessThan(1900);
    const served = await foreground;
    expect(served.stopReason).toBe('maxTokens');
    expect(served.tokens.completion).toBe(8);
    await scheduler.dispose();
  });
});
