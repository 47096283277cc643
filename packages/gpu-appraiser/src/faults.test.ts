import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDeviceScheduler, createScriptedModel } from '@mecha/local-model';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answerText,
  isQuoteCall,
  scriptedAppraiserModel,
} from './__fixtures__/scripted-appraiser.js';
import { openAppraiser } from './appraiser.js';
import { Journal } from './journal.js';
import { currentProcessor } from './processor.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function directory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-fault-'));
  dirs.push(dir);
  return dir;
}

const quotes = ['Bob fixed the build'];
const interpretation = {
  support: 1 as const,
  benefit: 500_000,
  confidence: 900_000,
  evidence: 'Bob fixed the build',
};
const replies = { 1: JSON.stringify(quotes), 2: answerText(interpretation) };
const pseudoTokens = (text: string) => Math.ceil(Array.from(text).length / 4);

describe('aborts at random points', () => {
  it('leaves 100 aborted sources interrupted with nothing published, and a retry completes each', async () => {
    const dir = directory();
    let target: { call: 1 | 2; token: number } | undefined;
    let controller = new AbortController();
    const model = createScriptedModel((prompt) => (isQuoteCall(prompt) ? replies[1] : replies[2]), {
      onToken: (emitted, request) => {
        const call =
          typeof request.prompt !== 'string' && request.prompt.system.startsWith('You read')
            ? 1
            : 2;
        if (target && target.call === call && emitted === target.token) controller.abort();
      },
    });
    const appraiser = openAppraiser({ directory: dir, model });
    appraiser.setAppraisal('on');
    const points = fc.sample(
      fc.oneof(
        fc.record({
          call: fc.constant(1 as const),
          token: fc.integer({ min: 1, max: pseudoTokens(replies[1]) - 1 }),
        }),
        fc.record({
          call: fc.constant(2 as const),
          token: fc.integer({ min: 1, max: pseudoTokens(replies[2]) - 1 }),
        }),
      ),
      { numRuns: 100, seed: 100 },
    );
    for (const [index, point] of points.entries()) {
      const { queueId } = appraiser.retainSource({
        text: `Bob fixed the build #${index}.`,
        owner: 'a',
        scope: 's',
        subject: 'bob',
      });
      target = point;
      controller = new AbortController();
      const aborted = await appraiser.run({ signal: controller.signal });
      expect(aborted.state).toBe('cancelled');
      expect(aborted.items).toEqual([
        expect.objectContaining({
          queueId,
          state: 'interrupted',
          reason: `call ${point.call}: cancelled`,
        }),
      ]);
      expect(appraiser.queueState(queueId as number)).toBe('interrupted');
      expect(appraiser.assessments()).toHaveLength(index);
      target = undefined;
      expect(appraiser.retry([queueId as number])).toEqual([{ queueId, state: 'pending' }]);
      const retried = await appraiser.run();
      expect(retried.items).toEqual([expect.objectContaining({ queueId, state: 'complete' })]);
      expect(appraiser.assessments()).toHaveLength(index + 1);
    }
    const calls = new Set(points.map((point) => point.call));
    expect(calls).toEqual(new Set([1, 2]));
    appraiser.close();
  });
});

describe('recovery from the journal', () => {
  it('records a SIGKILL mid-work as interrupted at restart, with no partial row', async () => {
    const dir = directory();
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./__fixtures__/kill-child.mjs', import.meta.url)), dir],
      {
        stdio: 'inherit',
      },
    );
    const journalPath = join(dir, 'journal.jsonl');
    // Call 2 emits one token a second and never finishes: once call 1's answer is journaled,
    // the child is inside call 2, whenever this poll sees it.
    while (!(existsSync(journalPath) && readFileSync(journalPath, 'utf8').includes('"phase":1'))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const appraiser = openAppraiser({
      directory: dir,
      model: scriptedAppraiserModel(() => ({ quotes, interpretation })),
    });
    expect(appraiser.status().journal.recoveredInterrupted).toBe(1);
    expect(appraiser.status().queue).toMatchObject({ interrupted: 1, complete: 0 });
    expect(appraiser.assessments()).toEqual([]);
    appraiser.retry();
    expect((await appraiser.run()).items[0]?.state).toBe('complete');
    appraiser.close();
  });

  it('cuts a torn journal tail and records the work it began as interrupted', async () => {
    const dir = directory();
    const first = openAppraiser({ directory: dir });
    first.setAppraisal('on');
    const { queueId, sourceId } = first.retainSource({
      text: 'Bob fixed the build.',
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    first.close();
    const journal = new Journal(join(dir, 'journal.jsonl'));
    journal.append({
      kind: 'begin',
      queue: queueId as number,
      source: sourceId,
      processor: currentProcessor,
      model: 'm',
    });
    appendFileSync(journal.path, '{"kind":"response","queue":1,"pro');
    const reopened = openAppraiser({ directory: dir });
    expect(reopened.status().journal).toMatchObject({ tornBytes: 33, recoveredInterrupted: 1 });
    expect(reopened.queueState(queueId as number)).toBe('interrupted');
    reopened.close();
    expect(readFileSync(journal.path, 'utf8').endsWith('\n')).toBe(true);
    const again = openAppraiser({ directory: dir });
    expect(again.status().journal).toMatchObject({ tornBytes: 0, recoveredInterrupted: 0 });
    again.close();
  });

  it('applies a fully recorded answer without a new model call', () => {
    const dir = directory();
    const first = openAppraiser({ directory: dir });
    first.setAppraisal('on');
    const { queueId, sourceId } = first.retainSource({
      text: 'Bob fixed the build.',
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    first.close();
    const journal = new Journal(join(dir, 'journal.jsonl'));
    const queue = queueId as number;
    journal.append({
      kind: 'begin',
      queue,
      source: sourceId,
      processor: currentProcessor,
      model: 'm',
    });
    journal.append({
      kind: 'response',
      queue,
      processor: currentProcessor,
      phase: 1,
      text: replies[1],
      bytes: replies[1].length,
      stopReason: 'grammar',
    });
    journal.append({
      kind: 'response',
      queue,
      processor: currentProcessor,
      phase: 2,
      text: replies[2],
      bytes: replies[2].length,
      stopReason: 'grammar',
      quotes,
    });
    const model = scriptedAppraiserModel(() => ({ quotes }));
    const reopened = openAppraiser({ directory: dir, model });
    expect(reopened.status().journal.recoveredApplied).toBe(1);
    expect(reopened.assessments()).toEqual([
      expect.objectContaining({ benefit: 500_000, model: 'm' }),
    ]);
    expect(model.prompts).toEqual([]);
    reopened.close();
  });

  it('refuses a recorded result of an unknown processor contract', () => {
    const dir = directory();
    const first = openAppraiser({ directory: dir });
    first.setAppraisal('on');
    const { queueId, sourceId } = first.retainSource({
      text: 'Bob fixed the build.',
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    first.close();
    const journal = new Journal(join(dir, 'journal.jsonl'));
    const unknown = 'f'.repeat(64);
    const queue = queueId as number;
    journal.append({ kind: 'begin', queue, source: sourceId, processor: unknown, model: 'm' });
    journal.append({
      kind: 'response',
      queue,
      processor: unknown,
      phase: 2,
      text: replies[2],
      bytes: 1,
      stopReason: 'grammar',
      quotes,
    });
    const reopened = openAppraiser({ directory: dir });
    expect(reopened.queueState(queue)).toBe('refused');
    expect(reopened.assessments()).toEqual([]);
    expect(reopened.status().journal.recoveredRefused).toBe(1);
    reopened.close();
  });
});

describe('foreground arrival during background work', () => {
  it('interrupts the background source within one token and publishes nothing of it', async () => {
    const model = createScriptedModel(
      (prompt) => (prompt === 'hello' ? 'hi' : isQuoteCall(prompt) ? replies[1] : replies[2]),
      { msPerToken: 2 },
    );
    const scheduler = createDeviceScheduler(model);
    const appraiser = openAppraiser({ directory: directory(), model: scheduler });
    appraiser.setAppraisal({ background: true });
    appraiser.setAppraisal('on');
    const { queueId } = appraiser.retainSource({
      text: 'Bob fixed the build.',
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    const background = appraiser.run({ background: true });
    while (model.emittedTokens < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    const atArrival = model.emittedTokens;
    const foreground = scheduler.complete({ prompt: 'hello', maxTokens: 4 }, 'foreground');
    const report = await background;
    const served = await foreground;
    expect(report.state).toBe('preempted');
    expect(report.items[0]).toMatchObject({
      queueId,
      state: 'interrupted',
      reason: expect.stringMatching(/foreground work needed the device/),
    });
    expect(served.text).toBe('hi');
    // Counting tokens, not time: the background wrote at most the one it was decoding.
    expect(model.emittedTokens - 1 - atArrival).toBeLessThanOrEqual(1);
    expect(appraiser.assessments()).toEqual([]);
    appraiser.close();
  });
});
