import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { openDeviceLease } from '@mecha/local-model';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  scriptedAppraiserModel as scripted,
  scriptedAppraiserModel,
} from './__fixtures__/scripted-appraiser.js';
import { openAppraiser } from './appraiser.js';

// Controls reach a running appraisal through the store, from any process: the worker looks at
// SQLite's data_version at every token and before every model call. The real-process tests run
// the tiny random-weight GGUF in a child; the child stops itself at an exact token (a gate file)
// so the other process's act lands at a known point without any timing.

let root: string;
let gguf: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mecha-appraiser-xproc-'));
  gguf = join(root, 'tiny.gguf');
  await writeTinyLlamaGguf({ path: gguf, seed: 15, contextLength: 4096 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  // A failed expectation must not leave a child waiting at its gate.
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

let count = 0;
function fresh(background = false): { dir: string; gate: string } {
  count += 1;
  const dir = join(root, `store-${count}`);
  const gate = join(root, `gate-${count}`);
  mkdirSync(gate, { recursive: true });
  const appraiser = openAppraiser({ directory: dir });
  appraiser.setAppraisal('on');
  if (background) appraiser.setAppraisal({ background: true });
  appraiser.retainSource({
    text: 'Bob fixed the build and will pay the fee.',
    owner: 'alice',
    scope: 'team',
    subject: 'bob',
  });
  appraiser.close();
  return { dir, gate };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

interface ChildOutput {
  readonly report: {
    state: string;
    items: { state: string; reason?: string }[];
    modelCalls: number;
  };
  readonly calls: { stopReason: string; completion: number }[];
}

function gatedRun(dir: string, gate: string, call: number, token: number, lease?: string) {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./__fixtures__/gated-run-child.mjs', import.meta.url)),
      dir,
      gguf,
      gate,
      String(call),
      String(token),
      ...(lease === undefined ? [] : [lease]),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const done = new Promise<ChildOutput>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as ChildOutput)
        : reject(new Error(`child exit ${code}`)),
    ),
  );
  return { child, done };
}

describe('a control from another handle (same process, its own connection)', () => {
  it('cancels the running appraisal within one token and stays pending', async () => {
    const dir = mkdtempSync(join(root, 'handle-'));
    let other: ReturnType<typeof openAppraiser> | undefined;
    const model = scriptedAppraiserModel(() => ({ quotes: ['Bob fixed the build'] }), {
      onToken: (emitted) => {
        if (emitted !== 3 || other) return;
        other = openAppraiser({ directory: dir });
        other.setLimits({ sourceRows: 8 });
      },
    });
    const appraiser = openAppraiser({ directory: dir, model });
    appraiser.setAppraisal('on');
    const { queueId } = appraiser.retainSource({
      text: 'Bob fixed the build.',
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    const run = await appraiser.run();
    expect(run).toMatchObject({
      state: 'cancelled',
      items: [
        { queueId, state: 'interrupted', reason: 'call 1: cancelled: a new control is pending' },
      ],
    });
    // The token clock: the control landed at token 3; not one more token was kept.
    expect(model.emittedTokens).toBe(3);
    // The other handle neither recovered the worker's open journal nor applied anything.
    expect(other?.status().journal).toMatchObject({ recoveredInterrupted: 0 });
    expect(appraiser.status().pending.map((control) => control.kind)).toEqual(['limits']);
    expect(appraiser.assessments()).toEqual([]);
    other?.close();
    appraiser.close();
  });

  it('defers recovery and pending controls while another handle works', async () => {
    const dir = mkdtempSync(join(root, 'defer-'));
    let seen: ReturnType<ReturnType<typeof openAppraiser>['status']> | undefined;
    let applied: readonly unknown[] | undefined;
    const model = scriptedAppraiserModel(() => ({ quotes: [] }), {
      onToken: (emitted) => {
        if (emitted !== 1 || seen) return;
        const other = openAppraiser({ directory: dir });
        other.setAppraisal({ background: true });
        applied = other.applyPending();
        seen = other.status();
        other.close();
      },
    });
    const appraiser = openAppraiser({ directory: dir, model });
    appraiser.setAppraisal('on');
    appraiser.retainSource({ text: 'Bob fixed it.', owner: 'a', scope: 's', subject: 'bob' });
    await appraiser.run();
    expect(seen?.journal.recoveryDeferred).toBe(true);
    expect(seen?.worker).toBe(process.pid);
    expect(applied).toEqual([]);
    expect(appraiser.status().worker).toBeNull();
    appraiser.close();
  });
});

describe('two real processes on the tiny GGUF', () => {
  it('a control from another process cancels a running appraisal within one token', async () => {
    const { dir, gate } = fresh();
    const { child, done } = gatedRun(dir, gate, 2, 3);
    await until(() => existsSync(join(gate, 'at-gate')));
    // This test process is the second process: the child is stopped at token 3 of call 2.
    const control = openAppraiser({ directory: dir });
    expect(control.status().worker).toBe(child.pid);
    expect(control.status().journal.recoveryDeferred).toBe(true);
    expect(control.setLimits({ sourceRows: 8 })).toMatchObject({ _tag: 'Right' });
    control.close();
    writeFileSync(join(gate, 'go'), '');
    const { report, calls } = await done;
    expect(report.state).toBe('cancelled');
    expect(report.items).toEqual([
      expect.objectContaining({
        state: 'interrupted',
        reason: 'call 2: cancelled: a new control is pending',
      }),
    ]);
    expect(calls[1]?.stopReason).toBe('aborted');
    expect((calls[1]?.completion ?? 99) - 3).toBeLessThanOrEqual(1);
    const after = openAppraiser({ directory: dir });
    expect(after.status()).toMatchObject({
      queue: { interrupted: 1, complete: 0 },
      worker: null,
      journal: { recoveredInterrupted: 0, recoveryDeferred: false },
    });
    expect(after.assessments()).toEqual([]);
    // The new setting is applied at the next quiet boundary.
    expect(after.applyPending().map((applied) => applied.kind)).toEqual(['limits']);
    after.close();
  });

  it('a hold suspends the ticks; a control given during the hold cancels when they resume', async () => {
    const { dir, gate } = fresh();
    // The child stops at call 1's first token; the hold is put on meanwhile.
    const { child, done } = gatedRun(dir, gate, 1, 1);
    await until(() => existsSync(join(gate, 'at-gate')));
    const control = openAppraiser({ directory: dir });
    control.hold();
    writeFileSync(join(gate, 'go'), '');
    // Call 1 ends; the tick before call 2 waits on the hold.
    await until(() => control.status().hold.waiting === child.pid);
    control.setAppraisal({ background: true });
    control.release();
    const { report, calls } = await done;
    expect(calls).toHaveLength(1);
    expect(report).toMatchObject({
      state: 'cancelled',
      modelCalls: 1,
      items: [{ state: 'interrupted', reason: 'call 2: cancelled: a new control is pending' }],
    });
    expect(control.status()).toMatchObject({
      hold: { held: false, waiting: null },
      queue: { interrupted: 1 },
    });
    control.close();
  });
});

describe('the machine-wide device lease', () => {
  it('a distill-like foreground lease from another process pre-empts a running background appraisal', async () => {
    const { dir, gate } = fresh(true);
    const leaseDir = join(root, `lease-${count}`);
    const { child, done } = gatedRun(dir, gate, 2, 3, leaseDir);
    await until(() => existsSync(join(gate, 'at-gate')));
    const lease = openDeviceLease({ directory: leaseDir });
    expect(lease.holder()).toEqual({ pid: child.pid, priority: 'background' });
    // The foreground request is announced at once; the device is ours once the child yields.
    const taking = lease.acquire('foreground');
    writeFileSync(join(gate, 'go'), '');
    const { report, calls } = await done;
    const release = await taking;
    expect(lease.holder()).toEqual({ pid: process.pid, priority: 'foreground' });
    release?.();
    expect(report).toMatchObject({
      state: 'preempted',
      items: [{ state: 'interrupted', reason: 'call 2: foreground work needed the device' }],
    });
    expect(calls[1]?.stopReason).toBe('aborted');
    expect((calls[1]?.completion ?? 99) - 3).toBeLessThanOrEqual(1);
    const after = openAppraiser({ directory: dir });
    expect(after.status().queue).toMatchObject({ interrupted: 1, complete: 0 });
    expect(after.assessments()).toEqual([]);
    after.close();
  });

  it('a SIGKILL during pre-emption is recovered from the journal', async () => {
    const { dir, gate } = fresh(true);
    const leaseDir = join(root, `lease-${count}`);
    const { child, done } = gatedRun(dir, gate, 2, 3, leaseDir);
    // Killed, it never reports: its exit is awaited below instead.
    done.catch(() => undefined);
    await until(() => existsSync(join(gate, 'at-gate')));
    const lease = openDeviceLease({ directory: leaseDir });
    const taking = lease.acquire('foreground');
    // Foreground work wants the device; the background worker dies before it can yield.
    const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const release = await taking;
    expect(lease.holder()).toEqual({ pid: process.pid, priority: 'foreground' });
    release?.();
    const quotes = ['Bob fixed the build'];
    const recovered = openAppraiser({
      directory: dir,
      model: scripted(() => ({
        quotes,
        interpretation: { support: 1, benefit: 400_000, evidence: 'Bob fixed the build' },
      })),
    });
    expect(recovered.status()).toMatchObject({
      worker: null,
      queue: { interrupted: 1 },
      journal: { recoveredInterrupted: 1, recoveryDeferred: false },
    });
    expect(recovered.assessments()).toEqual([]);
    expect(recovered.retry()).toEqual([expect.objectContaining({ state: 'pending' })]);
    expect((await recovered.run({ background: true })).items).toEqual([
      expect.objectContaining({ state: 'complete' }),
    ]);
    recovered.close();
  });
});
