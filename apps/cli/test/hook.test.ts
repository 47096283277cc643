import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderSnapshot } from '@mecha/vitest-config/folder-snapshot';
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

// A real Codex 0.125.0 rollout (packages/importers/src/__fixtures__/real/SOURCES.md).
const rolloutLog = fileURLToPath(
  new URL(
    '../../../packages/importers/src/__fixtures__/real/codex/0.125.0-unified-exec-failure.jsonl',
    import.meta.url,
  ),
);

describe('mecha hook codex', () => {
  const dir = tempDir('mecha-hook-');
  const home = join(dir, 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  const codexHome = join(dir, 'codex');
  const thread = '019e1625-789d-76c0-80ab-3724b5ddb799';
  mkdirSync(join(codexHome, 'sessions/2026/05/11'), { recursive: true });
  const rollout = join(
    codexHome,
    `sessions/2026/05/11/rollout-2026-05-11T11-26-55-${thread}.jsonl`,
  );
  const lines = readFileSync(rolloutLog, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const argument = (threadId = thread) =>
    JSON.stringify({
      type: 'agent-turn-complete',
      'thread-id': threadId,
      'turn-id': '019e1625-d031-75e3-a85f-f143e43c0d84',
      cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code',
      'input-messages': ['show tools'],
      'last-assistant-message': 'Available tool groups in this session: …',
    });

  /** Runs `mecha hook codex` as Codex runs its notify program: the JSON as the last argument. */
  function notify(at: string, json: string, extra: readonly string[] = []) {
    const result = spawnSync(
      process.execPath,
      [bin, '--home', at, 'hook', 'codex', ...extra, json],
      {
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/root',
          CODEX_HOME: codexHome,
        },
      },
    );
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('imports the rollout’s new lines at each turn’s end, silently, sharing the import ledger', () => {
    writeFileSync(rollout, `${lines.slice(0, 19).join('\n')}\n`);
    expect(notify(home, argument())).toEqual({ code: 0, stdout: '', stderr: '' });
    appendFileSync(rollout, `${lines.slice(19).join('\n')}\n`);
    const second = notify(home, argument(), ['--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      lines: { read: lines.length - 19 },
      sessions: { created: 0, continued: 1 },
    });
    // The import command reads the same ledger: nothing is new.
    const again = mechaJson([
      'import',
      'codex',
      join(codexHome, 'sessions'),
      '--home',
      home,
      '--json',
    ]);
    expect(again.json).toMatchObject({ events: 0, files: { unchanged: 1 } });
    const id = notify(home, argument(), ['--print-session']).stdout.trim();
    const appraised = mechaJson(['sessions', 'appraise', id, '--home', home, '--json']);
    expect(appraised.json).toMatchObject({ session_id: id, transcript_read: true });
  });

  it('never gets in Codex’s way: any failure exits 0 with one line on stderr, and writes nothing', () => {
    const before = folderSnapshot(home);
    for (const [json, said, at] of [
      ['{"type":"agent-turn-complete"}', 'not a Codex notification', home],
      [argument('019e0000-0000-7000-8000-000000000000'), 'no rollout of thread', home],
      [argument(), 'there is no mecha home at', join(dir, 'no-home')],
    ] as const) {
      const run = notify(at, json);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(said)]);
    }
    expect(folderSnapshot(home)).toEqual(before);
    expect(mecha(['hook', 'codex', '--help']).stdout).toContain(
      'notify = ["mecha", "hook", "codex"]',
    );
  });
});
