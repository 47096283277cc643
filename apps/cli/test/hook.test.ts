import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderSnapshot } from '@mecha/fixtures';
import { describe, expect, it } from 'vitest';
import { bin, mecha, mechaJson, tempDir } from './helpers.js';

// A real Claude Code 2.1.39 log (packages/importers/src/__fixtures__/real/SOURCES.md).
const log = fileURLToPath(
  new URL(
    '../../../packages/importers/src/__fixtures__/real/claude-code/2.1.39-notifications.jsonl',
    import.meta.url,
  ),
);

/** Runs `mecha hook claude-code` as Claude Code does: the payload on stdin. */
function hook(home: string, input: string, extra: readonly string[] = []) {
  const result = spawnSync(
    process.execPath,
    [bin, '--home', home, 'hook', 'claude-code', ...extra],
    {
      encoding: 'utf8',
      input,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mecha hook claude-code', () => {
  const dir = tempDir('mecha-hook-');
  const home = join(dir, 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  const projects = join(dir, 'projects');
  mkdirSync(join(projects, '-home-USER-spotter'), { recursive: true });
  const transcript = join(projects, '-home-USER-spotter/258c7280.jsonl');
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const payload = (event: string, path = transcript) =>
    JSON.stringify({ session_id: '258c7280', transcript_path: path, hook_event_name: event });

  it('imports the transcript’s new lines at each hook, silently, sharing the import ledger', () => {
    writeFileSync(transcript, `${lines.slice(0, 11).join('\n')}\n`);
    const first = hook(home, payload('UserPromptSubmit'));
    // Nothing on stdout: a UserPromptSubmit hook's stdout would reach the model.
    expect(first).toEqual({ code: 0, stdout: '', stderr: '' });
    appendFileSync(transcript, `${lines.slice(11).join('\n')}\n`);
    const second = hook(home, payload('Stop'), ['--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      lines: { read: lines.length - 11 },
      sessions: { created: 0, continued: 1 },
    });
    // The import command reads the same ledger: nothing is new.
    const again = mechaJson(['import', 'claude-code', projects, '--home', home, '--json']);
    expect(again.json).toMatchObject({ events: 0, files: { unchanged: 1 } });
  });

  it('prints the ended session’s mecha id for `mecha distill --session` with --print-session', () => {
    const run = hook(home, payload('SessionEnd'), ['--print-session']);
    expect(run.code).toBe(0);
    const id = run.stdout.trim();
    // The id of the session the transcript went into: its transcript is in the home.
    expect(id).toMatch(/^\d{8}T\d{6}-[0-9a-f]{8}$/);
    expect(existsSync(join(home, 'sessions', `${id}.jsonl`))).toBe(true);
    // A transcript with nothing imported yet prints nothing, so the documented line stops there.
    const empty = join(projects, '-home-USER-spotter/empty.jsonl');
    writeFileSync(empty, '');
    expect(hook(home, payload('SessionEnd', empty), ['--print-session'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('never blocks the session: any failure exits 0 with one line on stderr, and writes nothing', () => {
    const before = folderSnapshot(home);
    for (const [input, said, at] of [
      ['{"not":"a payload"}', 'not a Claude Code hook payload', home],
      [payload('Stop', join(dir, 'gone.jsonl')), 'there is no transcript at', home],
      [payload('Stop'), 'there is no mecha home at', join(dir, 'no-home')],
    ] as const) {
      const run = hook(at, input);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(said)]);
    }
    expect(folderSnapshot(home)).toEqual(before);
    const help = mecha(['hook', 'claude-code', '--help']);
    expect(help.stdout).toContain('.claude/settings.json');
  });
});
