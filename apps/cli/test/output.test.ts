import { describe, expect, it } from 'vitest';
import { fixturePath } from './helpers.js';

// The built library entry, run in this process so a terminal can be pretended.
const entry = new URL('../dist/index.js', import.meta.url).href;
const { main } = (await import(entry)) as {
  main: (argv: readonly string[], io: Record<string, unknown>) => Promise<number>;
};

async function run(argv: readonly string[], io: { env?: Record<string, string>; tty?: boolean }) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text: string) => {
      stdout += text;
    },
    stderr: (text: string) => {
      stderr += text;
    },
    env: { ...io.env },
    stdoutIsTTY: io.tty ?? false,
    stderrIsTTY: io.tty ?? false,
  });
  return { code, stdout, stderr };
}

const rows = fixturePath('rows');
const csi = '\u001b[';

describe('colour', () => {
  it('is used on a terminal', async () => {
    const result = await run(['--home', rows, 'sessions', 'appraise'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(csi);
  });

  it('is never used when NO_COLOR is set', async () => {
    const result = await run(['--home', rows, 'sessions', 'appraise'], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(result.stdout).not.toContain(csi);
  });

  it('is never used when stdout is not a terminal', async () => {
    const result = await run(['--home', rows, 'charter'], { tty: false });
    expect(result.stdout).not.toContain(csi);
  });

  it('is never in --json, even on a terminal', async () => {
    const result = await run(['--home', rows, 'sessions', 'appraise', '--json'], { tty: true });
    expect(result.stdout).not.toContain(csi);
    expect(() => JSON.parse(result.stdout)).not.toThrow();
  });
});

describe('the progress bar', () => {
  it('never appears for a scan shorter than a second, and never on stdout', async () => {
    const result = await run(['--home', rows, 'sessions', 'appraise', '--json'], { tty: true });
    expect(result.stderr).toBe('');
  });
});

describe('main(argv, io)', () => {
  it('returns the exit code instead of exiting', async () => {
    expect((await run(['--version'], {})).code).toBe(0);
    expect((await run(['frobnicate'], {})).code).toBe(2);
  });
});
