import { spawn } from 'node:child_process';

/** How one run of a `node:test` file ended. */
export interface TestRun {
  readonly status: 'passed' | 'failed' | 'timeout';
  /** Tests the runner reported; 0 when it reported none (an empty oracle). */
  readonly tests: number;
  readonly failed: number;
  /** The names of the failing tests, as the runner printed them. */
  readonly failing: readonly string[];
  readonly durationMs: number;
}

/**
 * Runs one JavaScript test file with Node's own test runner in `cwd`, TAP on stdout, and kills
 * it (SIGKILL, its whole process group) when it outlives `timeoutMs`. The environment is
 * minimal so nothing of the grader's leaks into what the test sees (`env` adds the grader's own
 * switches: the live mutant and the loop guard's bound).
 */
export function runNodeTest(
  cwd: string,
  testFile: string,
  timeoutMs: number,
  env: Readonly<Record<string, string>> = {},
): Promise<TestRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--test-reporter=tap', testFile], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (out.length < 1_000_000) out += chunk;
    });
    child.stderr.resume();
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const durationMs = performance.now() - started;
      const tests = Number(/^# tests (\d+)$/m.exec(out)?.[1] ?? 0);
      const failed = Number(/^# fail (\d+)$/m.exec(out)?.[1] ?? 0);
      const failing = [...out.matchAll(/^not ok \d+ - (.*)$/gm)].map((match) => match[1] ?? '');
      const status = timedOut ? 'timeout' : code === 0 && failed === 0 ? 'passed' : 'failed';
      resolve({ status, tests, failed, failing, durationMs });
    });
  });
}
