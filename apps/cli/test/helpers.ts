import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** The built command: every test runs it as a subprocess, the way a person does. */
export const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** What one run of the command gave. */
export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// A clean environment: nothing of the machine's (a real MECHA_HOME, a harness's registration,
// NO_COLOR) leaks into what the command sees unless a test passes it.
const baseEnv: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/root',
};

/** Runs `mecha` with arguments and extra environment variables. */
export function mecha(args: readonly string[], env: Record<string, string> = {}): Run {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...baseEnv, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `mecha … --json` and parses stdout, which must hold only JSON. */
export function mechaJson<T = Record<string, unknown>>(
  args: readonly string[],
  env: Record<string, string> = {},
): { readonly run: Run; readonly json: T } {
  const run = mecha(args, env);
  return { run, json: JSON.parse(run.stdout) as T };
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new empty temporary folder, removed after the file's tests. */
export function tempDir(prefix = 'mecha-cli-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A writable copy of a fixture home (`test/fixtures/<name>`). */
export function fixtureHome(name: string): string {
  const dir = join(tempDir(`mecha-${name}-`), 'home');
  cpSync(join(fixtures, name), dir, { recursive: true });
  return dir;
}

/** The read-only path of a fixture home, for readers that write nothing. */
export function fixturePath(name: string): string {
  return join(fixtures, name);
}

/** Every file's bytes and every folder under a home: equal only if nothing changed. */
export { folderSnapshot as snapshot } from '@mecha/vitest-config/folder-snapshot';

/** The records of a JSONL file. */
export function jsonl<T = Record<string, unknown>>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

/** The moment the fixture readouts are taken (the fixtures are from September 2026). */
export const fixtureNow = { MECHA_NOW: '2026-10-01T00:00:00Z' };

/** A running `mecha web`: its process, its address, and its exit code once it has gone. */
export interface RunningWeb {
  readonly server: ChildProcess;
  readonly base: string;
  readonly exited: Promise<number | null>;
}

/**
 * Starts `mecha web --port 0` with this environment (over the clean base) and waits, on its
 * output and never on a clock, for the address it serves; rejects with its output if it exits.
 */
export async function startWeb(env: Record<string, string>): Promise<RunningWeb> {
  const server = spawn(process.execPath, [bin, 'web', '--port', '0'], {
    env: { ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    server.once('exit', (code) => resolve(code)),
  );
  const base = await new Promise<string>((resolve, reject) => {
    server.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /serving (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout);
      if (found) resolve(found[1] as string);
    });
    void exited.then((code) => reject(new Error(`mecha web exited (${code}): ${stdout}${stderr}`)));
  });
  return { server, base, exited };
}
