import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bin, mecha, mechaJson, tempDir } from './helpers.js';

// Codex rollouts (packages/importers/src/__fixtures__/real/SOURCES.md): a real 0.77 one, and one
// written in 0.77's shapes with failed commands, written into the watched folder as they grow.
const real = fileURLToPath(
  new URL('../../../packages/importers/src/__fixtures__/real/codex/', import.meta.url),
);
const lines = (name: string) =>
  readFileSync(join(real, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `${line}\n`);

interface PassJson {
  readonly lines: { readonly read: number };
  readonly events: number;
  readonly sessions: { readonly created: number; readonly continued: number };
}

/**
 * `mecha import codex --watch --json` as a real process, its stdout read a line (a pass) at a
 * time. `until(n)` waits for passes until they have read n more lines, whatever time it takes:
 * no test reads a clock.
 */
function startWatch(home: string, source: string) {
  const child = spawn(process.execPath, [bin, 'import', 'codex', source, '--watch', '--json'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      MECHA_HOME: home,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const passes: PassJson[] = [];
  const waiting: (() => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    passes.push(JSON.parse(line) as PassJson);
    for (const wake of waiting.splice(0)) wake();
  });
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  let counted = 0;
  const until = async (more: number): Promise<PassJson[]> => {
    const from = passes.length;
    const target = counted + more;
    const read = () => passes.reduce((sum, pass) => sum + pass.lines.read, 0);
    while (read() < target || passes.length === from) {
      await new Promise<void>((wake) => waiting.push(wake));
    }
    counted = read();
    return passes.slice(from);
  };
  return { child, until, exited, stderr: () => stderr };
}

describe('mecha import codex --watch', () => {
  it('imports a rollout as Codex writes it, stops cleanly on SIGINT, and resumes', async () => {
    const dir = tempDir('mecha-watch-');
    const home = join(dir, 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    const source = join(dir, 'sessions');
    mkdirSync(join(source, '2026/01/05'), { recursive: true });
    const rollout = join(source, '2026/01/05/rollout-2026-01-05T09-00-00-a.jsonl');
    const first = lines('0.77.0-session-start.jsonl');
    writeFileSync(rollout, first.slice(0, 5).join(''));

    const watch = startWatch(home, source);
    expect(await watch.until(5)).toMatchObject([{ sessions: { created: 1 } }]);
    appendFileSync(rollout, first.slice(5).join(''));
    const grown = await watch.until(first.length - 5);
    expect(grown.reduce((sum, pass) => sum + pass.sessions.continued, 0)).toBeGreaterThan(0);
    expect(grown.every((pass) => pass.sessions.created === 0)).toBe(true);
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(watch.stderr()).toBe('');

    // Stopped cleanly: the ledger holds the place, so a plain import finds nothing new...
    const after = mechaJson<PassJson>(['import', 'codex', source, '--home', home, '--json']);
    expect(after.run.code).toBe(0);
    expect(after.json).toMatchObject({ lines: { read: 0 }, events: 0 });

    // ...and a second watch goes on from there, with the lines written while none ran.
    const failed = lines('written-0.77.0-shell-command-exit-code.jsonl');
    writeFileSync(join(source, '2026/01/05/rollout-2026-01-05T10-00-00-b.jsonl'), failed.join(''));
    const again = startWatch(home, source);
    expect(await again.until(failed.length)).toMatchObject([{ sessions: { created: 1 } }]);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    const last = mechaJson<PassJson>(['import', 'codex', source, '--home', home, '--json']);
    expect(last.json).toMatchObject({ lines: { read: 0 }, events: 0, files: { unchanged: 2 } });
  });

  it('says how it stopped, in words, without --json', async () => {
    const dir = tempDir('mecha-watch-');
    const home = join(dir, 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    const source = join(dir, 'sessions');
    mkdirSync(source, { recursive: true });
    const child = spawn(
      process.execPath,
      [bin, '--home', home, 'import', 'codex', source, '--watch'],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    await new Promise<void>((ready) =>
      child.stdout.on('data', (chunk) => {
        out += String(chunk);
        if (out.includes('Ctrl-C stops')) ready();
      }),
    );
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).toContain('Watching');
    expect(out).toMatch(/Stopped watching after 1 pass;/);
  });
});
