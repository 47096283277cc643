import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openHome, registerShell } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { bin, fixtureHome, snapshot } from './helpers.js';

const linux = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/**
 * A real shell, as a harness starts one for a run: it waits for a line, then runs two owner
 * acts through a second shell with every mecha variable removed, printing each exit status.
 * `register` gets the outer shell's pid before it runs anything.
 */
async function shellRuns(
  home: string,
  register: (pid: number) => Promise<void>,
): Promise<{ codes: string[]; stderr: string }> {
  const cli = `"${process.execPath}" "${bin}" --home "${home}"`;
  const acts = [
    `${cli} tasks set task-good --status done --session s-good; echo "close $?"`,
    `${cli} charter add mine "A line from the run"; echo "charter $?"`,
  ].join('; ');
  const shell = spawn(
    'sh',
    ['-c', `read go; env -u MECHA_SESSION_ID -u MECHA_RUN_ID -u MECHA_HOME sh -c '${acts}; true'`],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/root',
        MECHA_SESSION_ID: 's-absent-run',
        MECHA_RUN_ID: 'run-absent',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  shell.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  shell.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const closed = new Promise((resolve) => shell.on('close', resolve));
  await register(shell.pid as number);
  shell.stdin.end('go\n');
  await closed;
  return {
    codes: stdout
      .trim()
      .split('\n')
      .filter((line) => /^(close|charter) \d+$/.test(line)),
    stderr,
  };
}

describe.runIf(linux)('presence comes from the registered shell, not from variables', () => {
  it('refuses closing a task and editing the charter in a run’s shell that unset every mecha variable', async () => {
    const home = fixtureHome('tasks');
    let before = new Map<string, string>();
    const result = await shellRuns(home, async (pid) => {
      const registered = await registerShell(openHome(home), {
        pid,
        sessionId: 's-absent-run',
        runId: 'run-absent',
      });
      expect(registered._tag).toBe('Right');
      before = snapshot(home);
    });
    expect(result.codes).toEqual(['close 1', 'charter 1']);
    expect(result.stderr).toMatch(/run run-absent is registered with nobody present/);
    expect(result.stderr).toMatch(/only a person edits the charter/);
    // Nothing was written after the registration.
    expect(before.size).toBeGreaterThan(0);
    expect(snapshot(home)).toEqual(before);
  });

  it('allows both acts from a person’s own terminal: the same shell, registered by no run', async () => {
    const home = fixtureHome('tasks');
    const before = snapshot(home);
    expect(before.size).toBeGreaterThan(0);
    const result = await shellRuns(home, async () => {});
    // The variables were unset, and nothing registered the shell: a person typed these.
    expect(result.codes).toEqual(['close 0', 'charter 0']);
    expect(readFileSync(join(home, 'charter.toml'), 'utf8')).toMatch(/mine/);
  });
});
