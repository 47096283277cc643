import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

function mecha(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the built mecha command', () => {
  it('prints its version', () => {
    expect(mecha('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('lists its commands under --help', () => {
    const { code, stdout } = mecha('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: mecha <command>');
    expect(stdout).toMatch(/^ {2}demo {2}/m);
  });

  it('runs the demo', () => {
    const { code, stdout } = mecha('demo');
    expect(code).toBe(0);
    expect(stdout).toContain(`mecha ${version}`);
    expect(stdout).toContain('mecha demo');
  });

  it('refuses an unknown command with exit 2 and a hint on stderr', () => {
    const { code, stdout, stderr } = mecha('frobnicate');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      "mecha: unknown command 'frobnicate'\nRun 'mecha --help' for the commands.\n",
    );
  });

  it('refuses an unknown option with exit 2', () => {
    const { code, stderr } = mecha('--frobnicate');
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--frobnicate'");
  });
});
