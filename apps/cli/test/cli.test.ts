import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, mecha, tempDir } from './helpers.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

describe('the built mecha command', () => {
  it('prints its version', () => {
    expect(mecha(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    expect(mecha(['-v']).stdout).toBe(`${version}\n`);
  });

  it('lists its commands under --help, distill among them', () => {
    const { code, stdout } = mecha(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: mecha [--home DIR] <command> [options]');
    for (const name of ['charter', 'sessions', 'tasks', 'distill', 'web', 'demo']) {
      expect(stdout).toMatch(new RegExp(`^ {2}${name} +\\S`, 'm'));
    }
    expect(stdout).toContain('Exit codes: 0 ok, 1 failure, 2 usage.');
  });

  const levels: readonly (readonly string[])[] = [
    ['charter', '--help'],
    ['charter', 'add', '--help'],
    ['charter', 'move', '--help'],
    ['charter', 'rm', '--help'],
    ['charter', 'set', '--help'],
    ['charter', 'unset', '--help'],
    ['sessions', '--help'],
    ['sessions', 'appraise', '--help'],
    ['sessions', 'health', '--help'],
    ['sessions', 'successes', '--help'],
    ['tasks', '--help'],
    ['tasks', 'list', '--help'],
    ['tasks', 'add', '--help'],
    ['tasks', 'set', '--help'],
    ['demo', '--help'],
    ['distill', '--help'],
    ['web', '--help'],
  ];
  it.each(levels)('has help at every level: mecha %s %s %s', (...args) => {
    const run = mecha(args);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage: mecha /);
    expect(run.stderr).toBe('');
  });

  it('takes --help before the command too', () => {
    expect(mecha(['--help', 'sessions']).stdout).toContain('mecha sessions appraise');
  });

  it('refuses an unknown command with exit 2 and one line on stderr', () => {
    const { code, stdout, stderr } = mecha(['frobnicate']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe("mecha: unknown command 'frobnicate' (run 'mecha --help' for usage)\n");
  });

  it('refuses an unknown subcommand with exit 2', () => {
    const { code, stderr } = mecha(['sessions', 'frobnicate']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      "mecha: unknown command 'sessions frobnicate' (run 'mecha sessions --help' for its commands)\n",
    );
  });

  it('refuses an unknown option with exit 2', () => {
    const { code, stderr } = mecha(['--frobnicate']);
    expect(code).toBe(2);
    expect(stderr).toContain("unknown option '--frobnicate'");
  });

  it('refuses an empty --home rather than fall back to the default home', () => {
    expect(mecha(['--home', '', 'charter']).code).toBe(2);
    expect(mecha(['charter', '--home', '']).code).toBe(2);
    expect(mecha(['--home=', 'charter']).code).toBe(2);
  });

  it('runs distill, which without a model says how to configure one, with exit 1', () => {
    const { code, stderr } = mecha(['distill'], { MECHA_HOME: tempDir() });
    expect(code).toBe(1);
    expect(stderr).toContain('Set [model] path in ');
  });

  it('reads MECHA_HOME, and --home overrides it, before or after the command', () => {
    const empty = tempDir();
    // A home that does not exist is an error that says how to make one, never an empty home.
    const viaEnv = mecha(['sessions', 'appraise', '--json'], { MECHA_HOME: 'nowhere/that/exists' });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stdout).toBe('');
    expect(viaEnv.stderr).toMatch(
      /there is no mecha home at .*nowhere\/that\/exists: create one with 'mecha init --home /,
    );
    const before = mecha(['--home', empty, 'tasks', 'list'], { MECHA_HOME: '/proc/not-a-home' });
    const after = mecha(['tasks', 'list', '--home', empty], { MECHA_HOME: '/proc/not-a-home' });
    expect(before).toEqual({ code: 0, stdout: '0 tasks\n', stderr: '' });
    expect(after).toEqual(before);
  });
});

describe('a reader that closes the pipe early', () => {
  it('ends quietly, with no stack trace, when stdout is closed mid-output', () => {
    // `head -c 10` closes the pipe after ten bytes; the demo goes on writing for seconds after.
    const home = join(tempDir(), 'demo-home');
    const command = `"${process.execPath}" "${bin}" demo --home "${home}" | head -c 10 >/dev/null`;
    const result = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.stderr).toBe('');
  });
});
