import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { connectModelServer, localModelLoads, readModelEndpoint } from '@mecha/local-model';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openAppraiser } from './appraiser.js';

// The machine's one server in a real child process, holding the tiny random-weight GGUF: it
// runs background appraisal on ticks and serves the model to other processes. This test process
// is the other process: it sends foreground completions through the server (it never loads a
// model) and gives controls through the store. Every wait is for a file, a line or a state.

let root: string;
let gguf: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mecha-served-model-'));
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

let count = 0;
/** A memory with appraisal and background on and one pending report; its lease and gate folders. */
function fresh() {
  count += 1;
  const dir = join(root, `store-${count}`);
  const lease = join(root, `lease-${count}`);
  const gate = join(root, `gate-${count}`);
  mkdirSync(gate, { recursive: true });
  const appraiser = openAppraiser({ directory: dir });
  appraiser.setAppraisal('on');
  appraiser.setAppraisal({ background: true });
  const { queueId } = appraiser.retainSource({
    text: 'Bob fixed the build and will pay the fee.',
    owner: 'alice',
    scope: 'team',
    subject: 'bob',
  });
  appraiser.close();
  return { dir, lease, gate, queueId: queueId as number };
}

type Line = Record<string, unknown> & {
  run?: { items: { queueId: number; state: string; reason?: string }[] };
};

function server(dir: string, lease: string, gate: string, hold = false) {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./__fixtures__/served-model-child.mjs', import.meta.url)),
      dir,
      gguf,
      lease,
      gate,
      ...(hold ? ['hold'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  const lines: Line[] = [];
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

const yesNo = {
  prompt: 'Answer:',
  grammar: { gbnf: 'root ::= "yes" | "no"' },
  maxTokens: 4,
} as const;

describe('the served model pre-empts and resumes background appraisal', () => {
  it('a foreground completion from another process pre-empts the background appraisal, which resumes', async () => {
    const { dir, lease, gate, queueId } = fresh();
    const served = server(dir, lease, gate);
    // The server's background tick is at its first model call.
    await until(() => existsSync(join(gate, 'at-gate')));
    const client = await connectModelServer({ directory: lease, home: dir, modelPath: gguf });
    if (client._tag === 'Left') throw new Error(client.left.message);
    expect(client.right.endpoint.pid).toBe(served.child.pid);
    const answer = await client.right.complete(yesNo, 'foreground');
    expect(['yes', 'no']).toContain(answer.text);
    expect(answer.preempted).toBe(false);
    expect(existsSync(join(gate, 'preempted'))).toBe(true);
    // The pre-empted report was recorded interrupted, queued again and completed on a later tick.
    await until(() =>
      served.lines.some((line) => line.run?.items.some((item) => item.state === 'complete')),
    );
    const runs = served.lines.flatMap((line) => line.run?.items ?? []);
    expect(runs[0]).toMatchObject({
      queueId,
      state: 'interrupted',
      reason: 'call 1: foreground work needed the device',
    });
    expect(runs.at(-1)).toMatchObject({ queueId, state: 'complete' });
    // The model was loaded once, in the server; this process loaded none.
    expect(localModelLoads()).toBe(0);
    expect(await client.right.health()).toMatchObject({ loads: 1, requests: { complete: 1 } });
    const after = openAppraiser({ directory: dir });
    expect(after.assessments()).toHaveLength(1);
    after.close();
    served.child.kill('SIGTERM');
    expect(await served.exit).toBe(0);
    expect(readModelEndpoint(lease)).toBeUndefined();
  }, 300_000);

  it('a SIGKILL of the server during pre-emption is recovered from the journal; a new server replaces its file', async () => {
    const { dir, lease, gate, queueId } = fresh();
    const served = server(dir, lease, gate, true);
    await until(() => existsSync(join(gate, 'at-gate')));
    const client = await connectModelServer({ directory: lease, home: dir });
    if (client._tag === 'Left') throw new Error(client.left.message);
    // Its failure is looked at below; caught now so it is never an unhandled rejection.
    const asked = client.right.complete(yesNo, 'foreground').then(
      (result) => result,
      (error: unknown) => error as Error,
    );
    await until(() => existsSync(join(gate, 'preempted')));
    const exited = new Promise((resolve) =>
      served.child.once('exit', (_code, signal) => resolve(signal)),
    );
    served.child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    // The foreground caller is told; it is never handed an empty answer.
    expect(await asked).toBeInstanceOf(Error);
    // The dead server's endpoint file is stale: nobody uses it.
    expect(readModelEndpoint(lease)).toBeUndefined();
    const stale = await connectModelServer({ directory: lease, home: dir });
    expect(stale).toMatchObject({ _tag: 'Left', left: { kind: 'unreachable' } });

    const here = openAppraiser({ directory: dir });
    expect(here.status()).toMatchObject({
      queue: { interrupted: 1, complete: 0 },
      journal: { recoveredInterrupted: 1 },
    });
    expect(here.assessments()).toEqual([]);
    // A new server takes the stale endpoint file over; the interrupted report is retried from
    // this process (a control through the store) and the server's tick completes it.
    writeFileSync(join(gate, 'go'), '');
    const next = server(dir, lease, gate);
    await until(() => next.lines.length > 0);
    expect(next.lines[0]).toMatchObject({ serving: { pid: next.child.pid } });
    expect(readModelEndpoint(lease)?.pid).toBe(next.child.pid);
    expect(here.retry([queueId])).toEqual([expect.objectContaining({ state: 'pending' })]);
    await until(() => here.queueState(queueId) === 'complete');
    expect(here.assessments()).toHaveLength(1);
    here.close();
    next.child.kill('SIGTERM');
    expect(await next.exit).toBe(0);
  }, 300_000);
});
