import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { createDeviceScheduler } from '@mecha/local-model';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { openAppraiser, serveAppraiser } from './appraiser.js';

// `serveAppraiser` in a real child process holding the tiny random-weight GGUF; this test
// process is the other process: it retains reports and asks for runs through the store, and
// never has a model of its own. Every wait below waits for a state in the store or a line from
// the child, never for a length of time.

let root: string;
let gguf: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mecha-appraiser-serve-'));
  gguf = join(root, 'tiny.gguf');
  await writeTinyLlamaGguf({ path: gguf, seed: 15, contextLength: 4096 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The server in a child: its parsed output lines so far, and its exit. */
function server(directory: string, pages: number, others: readonly string[] = []) {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./__fixtures__/serve-child.mjs', import.meta.url)),
      directory,
      gguf,
      String(pages),
      ...others,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part));
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines, exit };
}

const report = (text: string) => ({ text, owner: 'alice', scope: 'team', subject: 'bob' });

// Each test runs a real server process on the tiny GGUF: under a loaded machine that takes
// minutes, so the hang guard is the real-model suites' 10 minutes, not the default 2.
describe('mecha appraiser serve: one process holds the model, others submit work', {
  timeout: 600_000,
}, () => {
  it("answers another process's run request and runs background ticks", async () => {
    const directory = join(root, 'served');
    const here = openAppraiser({ directory });
    here.setAppraisal('on');
    const first = here.retainSource(report('Bob fixed the build and will pay the fee.'));
    // This process has no model: run by itself, it cannot appraise anything.
    expect((await here.run()).state).toBe('no_model');

    const served = server(directory, 256);
    await until(() => served.lines.some((line) => 'serving' in line));
    expect(served.lines[0]).toMatchObject({
      serving: served.child.pid,
      reservation: { pages: 256, tokens: 4096, contextSize: 4096 },
    });
    expect(here.serving()).toBe(served.child.pid);

    // A second server on the same memory is refused, before it touches the device.
    const scripted = scriptedAppraiserModel(() => ({ quotes: [] }));
    const second = await serveAppraiser({
      directory,
      model: createDeviceScheduler(scripted),
      signal: new AbortController().signal,
    });
    expect(second).toEqual({
      _tag: 'Left',
      left: { kind: 'refused', message: `process ${served.child.pid} already serves this memory` },
    });
    expect(scripted.requests).toHaveLength(0);

    // A foreground run asked through the store: the server's model does the work.
    const id = here.requestRun();
    await until(() => here.runRequest(id)?.state === 'done');
    expect(here.runRequest(id)?.report).toMatchObject({
      state: 'done',
      modelCalls: 2,
      items: [{ queueId: first.queueId, state: 'complete' }],
    });
    expect(here.assessments()).toHaveLength(1);

    // Background on: new work is appraised on the server's ticks, with no request at all.
    here.setAppraisal({ background: true });
    const later = here.retainSource(report('Bob broke the build.'));
    await until(() => here.queueState(later.queueId as number) === 'complete');
    // The server's own line about it follows the commit through the pipe.
    await until(() => served.lines.some((line) => line.request === null));
    expect(served.lines).toContainEqual(
      expect.objectContaining({
        request: null,
        run: expect.objectContaining({ items: [expect.objectContaining({ state: 'complete' })] }),
      }),
    );

    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
    expect(served.lines.at(-1)).toMatchObject({ result: { _tag: 'Right' } });
    expect(here.serving()).toBeNull();
    here.close();
  });

  it('ticks other memories in turn, each under its own flags and limits, while serving its own', async () => {
    const own = join(root, 'own');
    const memory = (name: string, background: boolean, reports: number) => {
      const directory = join(root, name);
      const appraiser = openAppraiser({ directory });
      appraiser.setAppraisal('on');
      if (background) appraiser.setAppraisal({ background: true });
      const queued = Array.from({ length: reports }, (_, i) =>
        appraiser.retainSource(report(`Bob fixed build ${i} and will pay fee ${i}.`)),
      );
      return { directory, appraiser, queued: queued.map((q) => q.queueId as number) };
    };
    const ownMemory = memory('own', false, 0);
    // B wants background work and takes one source a run (its own limit); C does not want it.
    const b = memory('other-b', true, 2);
    expect(b.appraiser.setLimits({ sourceRows: 1 })._tag).toBe('Right');
    const c = memory('other-c', false, 1);
    // D was written by a newer mecha: it cannot be opened, and is said so once.
    const d = join(root, 'other-d');
    memory('other-d', true, 0).appraiser.close();
    const newer = new Database(join(d, 'memory.sqlite'));
    newer.pragma('user_version = 99');
    newer.close();

    const served = server(own, 256, [b.directory, c.directory, d]);
    await until(() => b.queued.every((id) => b.appraiser.queueState(id) === 'complete'));
    expect(served.lines).toContainEqual({
      skipped: d,
      reason: expect.stringContaining('was written by a newer mecha'),
    });
    // Two runs for B's two sources: its limit of one source a run held.
    await until(() => served.lines.filter((line) => line.directory === b.directory).length === 2);
    const bRuns = served.lines.filter((line) => line.directory === b.directory);
    for (const line of bRuns) {
      expect(line).toMatchObject({ request: null, run: { items: [{ state: 'complete' }] } });
    }
    // C had its turn between B's two runs (the round goes on from the memory after the one that
    // worked) and stayed pending: its background is off.
    expect(c.appraiser.queueState(c.queued[0] as number)).toBe('pending');
    expect(served.lines.some((line) => line.directory === c.directory)).toBe(false);
    // Turned on from here, C's control reaches the idle server through its store.
    c.appraiser.setAppraisal({ background: true });
    await until(() => c.appraiser.queueState(c.queued[0] as number) === 'complete');
    // The server's own memory is served as before: a request from here is answered.
    const id = ownMemory.appraiser.requestRun();
    await until(() => ownMemory.appraiser.runRequest(id)?.state === 'done');
    await until(() => served.lines.some((line) => line.request === id));
    expect(served.lines.find((line) => line.request === id)).toMatchObject({ directory: own });

    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
    for (const open of [ownMemory, b, c]) open.appraiser.close();
  });

  it('refuses to start serving when the key/value pages cannot be reserved', async () => {
    const directory = join(root, 'too-many-pages');
    // 257 pages of 16 tokens is 4,112 tokens: more than the model's 4,096-token context.
    const served = server(directory, 257);
    expect(await served.exit).toBe(0);
    expect(served.lines).toEqual([
      {
        refused: {
          kind: 'refused',
          message:
            'cannot reserve 257 key/value pages (4112 tokens per sequence): the model holds at most 4096 tokens per sequence (trained context 4096); set at most 256 pages (mecha appraiser limits --pages 256)',
        },
      },
    ]);
    const here = openAppraiser({ directory });
    expect(here.serving()).toBeNull();
    here.close();
  });

  it('answers a request a dead server left running as cancelled, when the next one starts', async () => {
    const directory = join(root, 'abandoned');
    const here = openAppraiser({ directory });
    const id = here.requestRun();
    expect(here.runRequest(id)).toEqual({ id, state: 'waiting' });
    // What a server killed mid-run leaves: the request marked running, no report.
    const db = new Database(join(directory, 'memory.sqlite'));
    db.prepare("UPDATE run_requests SET state = 'running' WHERE id = ?").run(id);
    db.close();
    const controller = new AbortController();
    const result = await serveAppraiser({
      directory,
      model: createDeviceScheduler(scriptedAppraiserModel(() => ({ quotes: [] }))),
      signal: controller.signal,
      onServing: () => controller.abort(),
    });
    expect(result).toEqual({ _tag: 'Right', right: { runs: 0 } });
    expect(here.runRequest(id)).toEqual({
      id,
      state: 'done',
      report: { state: 'cancelled', items: [], modelCalls: 0 },
    });
    here.close();
  });
});
