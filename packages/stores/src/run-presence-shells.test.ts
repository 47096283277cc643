import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rightOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { type MechaHome, openHome } from './open-home.js';
import { processAncestry, processStart } from './process-ancestry.js';
import { registerShell, runPresence } from './run-registration.js';
import { createSessionRecorder } from './session-recorder.js';

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');
const built = new URL('../dist/index.js', import.meta.url).href;
const linux = processAncestry() !== undefined;

// What a command inside the shell does: it asks the built package, as `mecha tasks set` would,
// to close the task, passing its own (scrubbed) environment.
const childSource = `
const { openHome, moveTask, runPresence } = await import(${JSON.stringify(built)});
const home = openHome(process.env.HOME_UNDER_TEST);
const presence = await runPresence(home, process.env);
const closed = await moveTask(home, {
  query: 'task-1', to: 'done', surface: 'cli', env: process.env,
});
const left = closed._tag === 'Left' ? closed.left : undefined;
console.log(JSON.stringify({ presence: presence.kind, state: left === undefined ? closed.right.state : 'refused', reason: left?.kind ?? null,
  variables: ['MECHA_SESSION_ID', 'MECHA_RUN_ID', 'MECHA_HOME'].filter((name) => name in process.env) }));
`;

async function homeWithRun(personPresent: boolean) {
  const home = openHome(tempDir());
  right(await home.board.put([{ v: 1, kind: 'task', id: 'task-1', title: 'T', status: 'next' }]));
  const session = createSessionRecorder(home);
  const run = right(await session.startRun({ surface: 'task', personPresent }));
  return { home, session, run };
}

/**
 * Starts a real shell that waits for a line on stdin and then runs the child two processes
 * down, with every MECHA_ variable removed; `beforeGo` runs once the shell exists.
 */
async function inShell(
  home: MechaHome,
  env: Record<string, string>,
  beforeGo: (pid: number) => Promise<void>,
): Promise<{ presence: string; state: string; reason: string | null; variables: string[] }> {
  const script = join(tempDir(), 'child.mjs');
  writeFileSync(script, childSource);
  const shell = spawn(
    'sh',
    [
      '-c',
      // `; true` keeps the inner shell alive, so node is a grandchild of the registered shell.
      'read go; env -u MECHA_SESSION_ID -u MECHA_RUN_ID -u MECHA_HOME sh -c "$NODE $SCRIPT; true"',
    ],
    {
      env: {
        ...process.env,
        ...env,
        HOME_UNDER_TEST: home.path,
        NODE: process.execPath,
        SCRIPT: script,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  shell.stdout.on('data', (chunk) => {
    out += chunk;
  });
  shell.stderr.on('data', (chunk) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => shell.on('close', resolve));
  if (shell.pid === undefined) throw new Error('the shell did not start');
  await beforeGo(shell.pid);
  shell.stdin.end('go\n');
  const code = await exited;
  if (code !== 0) throw new Error(`the shell exited ${code}: ${err}`);
  return JSON.parse(out);
}

describe.runIf(linux)('presence from registered shells (real processes)', () => {
  it('refuses the owner’s act to a command whose ancestor shell a run registered, with every mecha variable unset', async () => {
    const { home, session, run } = await homeWithRun(false);
    const closures = join(home.path, 'closures', 'closures.jsonl');
    const board = readFileSync(join(home.path, 'board', 'board.jsonl'));
    const result = await inShell(
      home,
      { MECHA_SESSION_ID: session.sessionId, MECHA_RUN_ID: run.runId },
      async (pid) => {
        right(await registerShell(home, { pid, sessionId: session.sessionId, runId: run.runId }));
      },
    );
    expect(result).toEqual({
      presence: 'run',
      state: 'refused',
      reason: 'nobody_present',
      variables: [],
    });
    expect(() => readFileSync(closures)).toThrow();
    expect(readFileSync(join(home.path, 'board', 'board.jsonl'))).toEqual(board);
  });

  it('allows the same command from a person’s own terminal (no registered ancestor)', async () => {
    const { home } = await homeWithRun(false);
    const result = await inShell(home, {}, async () => {});
    expect(result).toMatchObject({ presence: 'terminal', state: 'closed' });
  });

  it('ignores a registration the variables would forge: the registered ancestor decides', async () => {
    const { home, session, run } = await homeWithRun(false);
    // An attended run elsewhere, whose ids a command might copy into its environment.
    const attended = createSessionRecorder(home);
    const other = right(await attended.startRun({ surface: 'web', personPresent: true }));
    const script = join(tempDir(), 'forge.mjs');
    writeFileSync(
      script,
      `const { openHome, runPresence } = await import(${JSON.stringify(built)});
const presence = await runPresence(openHome(process.env.HOME_UNDER_TEST), {
  MECHA_SESSION_ID: ${JSON.stringify(attended.sessionId)}, MECHA_RUN_ID: ${JSON.stringify(other.runId)} });
console.log(JSON.stringify({ presence: presence.kind, state: presence.runId, reason: null, variables: [] }));`,
    );
    const shell = spawn('sh', ['-c', `read go; "${process.execPath}" "${script}"; true`], {
      env: { ...process.env, HOME_UNDER_TEST: home.path },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    shell.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const exited = new Promise((resolve) => shell.on('close', resolve));
    right(
      await registerShell(home, {
        pid: shell.pid as number,
        sessionId: session.sessionId,
        runId: run.runId,
      }),
    );
    shell.stdin.end('go\n');
    await exited;
    expect(JSON.parse(out)).toMatchObject({ presence: 'run', state: run.runId });
  });

  it('refuses to register a process that is not running, and ignores a registration whose pid was reused', async () => {
    const { home, session, run } = await homeWithRun(false);
    const gone = spawn('true');
    await new Promise((resolve) => gone.on('close', resolve));
    const refused = await registerShell(home, {
      pid: gone.pid as number,
      sessionId: session.sessionId,
      runId: run.runId,
    });
    expect(E.isLeft(refused) && refused.left.message).toMatch(/is not running/);

    // A registration of this very process, made under another start time: a dead shell whose
    // pid the kernel gave to this process later.
    right(
      await home.shells.append([
        {
          v: 1,
          at: new Date().toISOString(),
          pid: process.pid,
          process_start: `${Number(processStart(process.pid)) + 1}`,
          session_id: session.sessionId,
          run_id: run.runId,
        },
      ]),
    );
    expect((await runPresence(home, {})).kind).toBe('terminal');
    right(
      await registerShell(home, {
        pid: process.pid,
        sessionId: session.sessionId,
        runId: run.runId,
      }),
    );
    expect(await runPresence(home, {})).toMatchObject({ kind: 'run', personPresent: false });
  });

  it('counts an unreadable registry as nobody present', async () => {
    const { home } = await homeWithRun(false);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(home.path, 'runs', 'shells.jsonl'), { recursive: true });
    expect((await runPresence(home, {})).kind).toBe('unverifiable');
  });
});

it('reads the ancestry of this process from /proc, nearest first', () => {
  const chain = processAncestry();
  if (chain === undefined) return;
  expect(chain[0]?.pid).toBe(process.pid);
  expect(chain[1]?.pid).toBe(process.ppid);
  expect(fileURLToPath(built)).toMatch(/dist/);
});
