import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { openDeviceLease } from '@mecha/local-model';
import { describe, expect, it } from 'vitest';
import { bin, mecha, tempDir } from './helpers.js';

// `mecha appraiser serve` holds the tiny random-weight GGUF in one process; `mecha appraiser
// add` and `run` in other processes work through the store. Every wait is for a line or a state,
// never for a length of time.

async function servedHome(): Promise<string> {
  const home = tempDir();
  // A 4,096-token model: 256 pages of 16 tokens fit it exactly.
  await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 3, contextLength: 4096 });
  writeFileSync(join(home, 'config.toml'), '[model]\npath = "tiny.gguf"\n');
  mecha(['--home', home, 'appraiser', 'on']);
  return home;
}

function add(home: string, text: string, env: Record<string, string> = {}): number | null {
  const added = spawnSync(
    process.execPath,
    [
      bin,
      '--home',
      home,
      'appraiser',
      'add',
      '--owner',
      'alice',
      '--scope',
      'team',
      '--subject',
      'bob',
    ],
    { input: text, encoding: 'utf8', env: { ...process.env, ...env } },
  );
  return added.status;
}

// The machine's device folder (lease and model server endpoint) of a test: never the real
// $XDG_RUNTIME_DIR, which other processes on this machine share.
const machineOf = (home: string) => ({ MECHA_DEVICE_DIR: join(home, 'device') });

function serve(home: string, env: Record<string, string> = machineOf(home)) {
  const child = spawn(
    process.execPath,
    [bin, '--home', home, 'appraiser', 'serve', '--threads', '1', '--json'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, XDG_RUNTIME_DIR: '', ...env } },
  );
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) lines.push(JSON.parse(part));
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, lines, exit, stderr: () => stderr };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('mecha appraiser serve', () => {
  it('holds the model for the home; run from another shell is served by it', async () => {
    const home = await servedHome();
    mecha(['--home', home, 'appraiser', 'limits', '--pages', '256']);
    expect(add(home, 'Bob fixed the build.')).toBe(0);
    const server = serve(home);
    try {
      await until(() => server.lines.length > 0 || server.child.exitCode !== null);
      expect(server.lines[0]).toMatchObject({
        serving: server.child.pid,
        reservation: { state: 'reserved', pages: 256, tokens: 4096 },
      });
      // A second server for the same home is refused before it loads anything.
      const second = mecha(['--home', home, 'appraiser', 'serve']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`process ${server.child.pid} already serves this home`);

      const run = mecha(['--home', home, 'appraiser', 'run', '--json']);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        state: 'done',
        modelCalls: 2,
        items: [{ state: 'complete' }],
      });
      const text = mecha(['--home', home, 'appraiser', 'run']);
      expect(text.stdout).toContain(`served by process ${server.child.pid} (run request #2)`);
      expect(text.stdout).toContain('run: done (0 sources, 0 model calls)');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exit).toBe(0);
    expect(server.lines.at(-1)).toEqual({ state: 'stopped', runs: 2 });
  }, 600_000);

  it('refuses to start when the key/value pages cannot be reserved', async () => {
    const home = await servedHome();
    // 257 pages of 16 tokens: 4,112 tokens, more than the model's 4,096.
    mecha(['--home', home, 'appraiser', 'limits', '--pages', '257']);
    const refused = mecha(['--home', home, 'appraiser', 'serve', '--threads', '1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'cannot reserve 257 key/value pages (4112 tokens per sequence): the model holds at most 4096 tokens per sequence',
    );
    expect(refused.stdout).toBe('');
  }, 600_000);

  it('is one per machine: another home runs through it, loading no model; a second serve is refused', async () => {
    const first = await servedHome();
    mecha(['--home', first, 'appraiser', 'limits', '--pages', '256']);
    const machine = { MECHA_DEVICE_DIR: join(tempDir(), 'machine') };
    // A file a dead server left: replaced when this one starts.
    mkdirSync(machine.MECHA_DEVICE_DIR, { recursive: true });
    const endpointFile = join(machine.MECHA_DEVICE_DIR, 'model-server');
    writeFileSync(
      endpointFile,
      '999999999\n{"url":"http://127.0.0.1:1","token":"t","modelPath":"x"}\n',
    );
    const server = serve(first, machine);
    try {
      await until(() => server.lines.length > 0 || server.child.exitCode !== null);
      expect(server.lines[0]).toMatchObject({ serving: server.child.pid });
      const url = server.lines[0]?.endpoint as string;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const [pid, note] = readFileSync(endpointFile, 'utf8').split('\n');
      expect(Number(pid)).toBe(server.child.pid);

      // Another home on the same machine, naming the same GGUF.
      const other = tempDir();
      writeFileSync(join(other, 'config.toml'), `[model]\npath = "${join(first, 'tiny.gguf')}"\n`);
      expect(mecha(['--home', other, 'appraiser', 'on']).code).toBe(0);
      expect(add(other, 'Bob fixed the build.')).toBe(0);
      const second = mecha(['--home', other, 'appraiser', 'serve'], machine);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `process ${server.child.pid} already serves the model on this machine at ${url} (endpoint file ${endpointFile})`,
      );
      const run = mecha(['--home', other, 'appraiser', 'run', '--json'], machine);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        `using the model served by process ${server.child.pid} at ${url}`,
      );
      expect(JSON.parse(run.stdout)).toMatchObject({
        state: 'done',
        modelCalls: 2,
        model: { served: true, pid: server.child.pid, url },
      });
      // Its calls went to the server, which loaded the model once and says whose they were.
      const token = (JSON.parse(note ?? '{}') as { token: string }).token;
      const health = await new Promise<Record<string, unknown>>((resolve, reject) => {
        request(`${url}/health`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
          let text = '';
          response.on('data', (chunk) => {
            text += chunk;
          });
          response.once('end', () => resolve(JSON.parse(text)));
        })
          .once('error', reject)
          .end();
      });
      expect(health).toMatchObject({ loads: 1, requests: { complete: 2 } });
      // Every request named its home (the completions, and the model identity for the journal).
      expect(Object.keys(health.homes as object)).toEqual([other]);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exit).toBe(0);
    expect(existsSync(endpointFile)).toBe(false);
  }, 600_000);

  it('ticks the background work of other homes on its GGUF; a home on another GGUF is skipped, loads its own model and still takes the lease', async () => {
    const first = await servedHome();
    mecha(['--home', first, 'appraiser', 'limits', '--pages', '256']);
    const machine = { MECHA_DEVICE_DIR: join(tempDir(), 'machine') };
    // C names a GGUF of its own (another file), and asks for background work before serve starts.
    const c = tempDir();
    await writeTinyLlamaGguf({ path: join(c, 'own.gguf'), seed: 4, contextLength: 4096 });
    writeFileSync(join(c, 'config.toml'), '[model]\npath = "own.gguf"\nthreads = 1\n');
    expect(mecha(['--home', c, 'appraiser', 'on', '--background'], machine).code).toBe(0);
    expect(add(c, 'Carol fixed the build.')).toBe(0);
    const server = serve(first, machine);
    try {
      await until(() => server.lines.length > 0 || server.child.exitCode !== null);
      expect(server.lines[0]).toMatchObject({ serving: server.child.pid });
      const served = realpathSync(join(first, 'tiny.gguf'));
      await until(() => server.lines.some((line) => 'skipped' in line));
      expect(server.lines).toContainEqual({
        skipped: realpathSync(c),
        reason: `its [model] path is ${realpathSync(join(c, 'own.gguf'))}, not the GGUF this server holds (${served}): it loads its own model, on the machine's device lease`,
      });

      // B names the server's GGUF and asks for background work while it serves: it joins.
      const b = tempDir();
      writeFileSync(join(b, 'config.toml'), `[model]\npath = "${join(first, 'tiny.gguf')}"\n`);
      expect(mecha(['--home', b, 'appraiser', 'on'], machine).code).toBe(0);
      expect(add(b, 'Bob fixed the build.')).toBe(0);
      expect(mecha(['--home', b, 'appraiser', 'on', '--background'], machine).code).toBe(0);
      const bHome = realpathSync(b);
      await until(() => server.lines.some((line) => line.home === bHome));
      expect(server.lines).toContainEqual({ ticking: bHome });
      expect(server.lines.find((line) => line.home === bHome)).toMatchObject({
        request: null,
        run: { state: 'done', items: [{ state: 'complete' }] },
      });
      const status = JSON.parse(mecha(['--home', b, 'appraiser', 'status', '--json']).stdout);
      expect(status.queue).toMatchObject({ pending: 0, complete: 1 });
      // C's own report was never ticked by this server.
      expect(server.lines.some((line) => line.home === realpathSync(c))).toBe(false);

      // C's own run: the server is not used (stderr and --json say why), C loads its own GGUF,
      // and its foreground call still announces itself on the machine's one device lease, which
      // a background holder of any process (here this test's) sees and yields to.
      const lease = openDeviceLease({ directory: machine.MECHA_DEVICE_DIR });
      const release = await lease.acquire('background');
      const run = spawn(process.execPath, [bin, '--home', c, 'appraiser', 'run', '--json'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, XDG_RUNTIME_DIR: '', ...machine },
      });
      let out = '';
      let err = '';
      run.stdout.on('data', (chunk) => {
        out += chunk;
      });
      run.stderr.on('data', (chunk) => {
        err += chunk;
      });
      const ran = new Promise<number | null>((resolve) => run.once('exit', resolve));
      // It cannot end before the lease is given back: it ends early only if it never asked.
      await until(() => lease.foregroundWanted() || run.exitCode !== null);
      expect(run.exitCode).toBeNull();
      expect(existsSync(join(machine.MECHA_DEVICE_DIR, `foreground.${run.pid}`))).toBe(true);
      release?.();
      expect(await ran).toBe(0);
      const why = `the model server of process ${server.child.pid} holds ${served}, not ${realpathSync(join(c, 'own.gguf'))}`;
      expect(err).toContain(
        `mecha appraiser run: not using the model served by process ${server.child.pid}: ${why}; loading [model] path here`,
      );
      expect(JSON.parse(out)).toMatchObject({
        state: 'done',
        items: [{ state: 'complete' }],
        model: { served: false, path: join(c, 'own.gguf'), notServed: why },
      });
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exit).toBe(0);
  }, 600_000);

  it("serves mecha reflect (distill and nightly's model acquisition) from another home", async () => {
    const first = await servedHome();
    mecha(['--home', first, 'appraiser', 'limits', '--pages', '256']);
    const machine = { MECHA_DEVICE_DIR: join(tempDir(), 'machine') };
    const server = serve(first, machine);
    try {
      await until(() => server.lines.length > 0 || server.child.exitCode !== null);
      expect(server.lines[0]).toMatchObject({ serving: server.child.pid });
      const home = reflectHome(join(first, 'tiny.gguf'));
      const run = mecha(['--home', home, 'reflect', '--json'], machine);
      expect(run.code).toBe(0);
      // This process used the served model: it says so, and loaded none of its own.
      expect(run.stderr).toContain(
        `mecha reflect: using the model served by process ${server.child.pid}`,
      );
      expect(JSON.parse(run.stdout)).toMatchObject({ modelCalls: 1 });
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exit).toBe(0);
  }, 600_000);

  it("distill's model acquisition (mecha reflect) loading its own model takes the lease at foreground: a background holder yields", async () => {
    const gguf = join(tempDir(), 'tiny.gguf');
    await writeTinyLlamaGguf({ path: gguf, seed: 3, contextLength: 4096 });
    const home = reflectHome(gguf);
    const machine = { MECHA_DEVICE_DIR: join(tempDir(), 'machine') };
    // This test process holds the device for background work, as a running appraisal would.
    const lease = openDeviceLease({ directory: machine.MECHA_DEVICE_DIR });
    const release = await lease.acquire('background');
    const reflect = spawn(process.execPath, [bin, '--home', home, 'reflect', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_RUNTIME_DIR: '', ...machine },
    });
    let out = '';
    reflect.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const ended = new Promise<number | null>((resolve) => reflect.once('exit', resolve));
    // What a background generation looks at every token: foreground work wants the device.
    // It cannot end before the lease is given back: it ends early only if it never asked.
    await until(() => lease.foregroundWanted() || reflect.exitCode !== null);
    expect(reflect.exitCode).toBeNull();
    expect(existsSync(join(machine.MECHA_DEVICE_DIR, `foreground.${reflect.pid}`))).toBe(true);
    release?.();
    expect(await ended).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ modelCalls: 1 });
    expect(lease.foregroundWanted()).toBe(false);
  }, 600_000);
});

/** A home made by `mecha init` holding one session in which the owner steered, for `mecha reflect`. */
function reflectHome(gguf: string): string {
  const home = join(tempDir(), 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  const base = (second: number) => ({
    v: 1,
    at: `2026-09-20T09:00:0${second}Z`,
    run_id: 'run-1',
  });
  const message = (second: number, turn: number, id: string, text: string) => ({
    ...base(second),
    type: 'message',
    turn,
    message_id: id,
    role: 'owner',
    taint: 'clean',
    text,
  });
  const events = [
    {
      ...base(0),
      type: 'run_start',
      session_id: 's-1',
      surface: 'cli',
      session_kind: 'ordinary',
      workspace: '/w',
    },
    message(1, 0, 'm-1', 'Update the dependencies.'),
    { ...base(2), type: 'intervention', turn: 1, kind: 'steer' },
    message(3, 1, 'm-2', 'Stop rewriting the lockfile by hand; run pnpm install instead.'),
    { ...base(4), type: 'run_end', stop_cause: 'completed' },
  ];
  mkdirSync(join(home, 'sessions'), { recursive: true });
  writeFileSync(
    join(home, 'sessions', '20260920T090000-steered.jsonl'),
    `${events.map((event) => JSON.stringify(event)).join('\n')}\n`,
  );
  const config = join(home, 'config.toml');
  writeFileSync(
    config,
    `${readFileSync(config, 'utf8')}\n[model]\npath = "${gguf}"\nthreads = 1\n`,
  );
  return home;
}
