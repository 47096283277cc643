import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import { initHome, type MechaHome, openHome } from '@mecha/stores';
import { folderSnapshot } from '@mecha/vitest-config/folder-snapshot';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import { importFromClaudeCodeHook } from './import-from-hook.js';
import { importHistory } from './import-history.js';

// A real Claude Code 2.1.39 log (see __fixtures__/real/SOURCES.md), written a turn at a time as
// Claude Code writes it, with the hook run at each turn's end as Claude Code runs it.
const log = fileURLToPath(
  new URL('./__fixtures__/real/claude-code/2.1.39-notifications.jsonl', import.meta.url),
);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function setUp(): { home: MechaHome; projects: string; transcript: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-hook-'));
  made.push(dir);
  initHome(join(dir, 'home'));
  const projects = join(dir, 'projects');
  mkdirSync(join(projects, '-home-USER-spotter'), { recursive: true });
  const transcript = join(projects, '-home-USER-spotter/258c7280.jsonl');
  writeFileSync(transcript, '');
  return { home: openHome(join(dir, 'home')), projects, transcript };
}

const payload = (event: string, transcript: string) =>
  JSON.stringify({
    session_id: '258c7280-ae70-4798-800f-63464d01a85d',
    transcript_path: transcript,
    cwd: '/home/USER/spotter',
    hook_event_name: event,
    stop_hook_active: false,
  });

const transcriptOf = (home: MechaHome): string => {
  const folder = join(home.path, home.sessions.file('x'), '..');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .join('');
};

describe('importFromClaudeCodeHook', () => {
  it('imports each turn’s new lines at the Stop hook, and a later import adds nothing', async () => {
    const { home, projects, transcript } = setUp();
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const ends = () =>
      transcriptOf(home)
        .split('\n')
        .filter((line) => line.includes('"run_end"')).length;
    // Lines 1–11 end on an interrupt; 12–23 on an answer (a compaction hook runs before it is
    // over); 24–26 are the Stop hook's progress lines, before its stop_hook_summary line.
    const counted: number[] = [];
    for (const [from, to, event] of [
      [0, 11, 'Stop'],
      [11, 23, 'PreCompact'],
      [23, 26, 'Stop'],
      [26, lines.length, 'SessionEnd'],
    ] as const) {
      appendFileSync(transcript, `${lines.slice(from, to).join('\n')}\n`);
      const done = await importFromClaudeCodeHook(home, payload(event, transcript));
      expect(rightOrThrow(done)).toMatchObject({ event });
      counted.push(ends());
    }
    // The Stop hook ends the answered run at once, not when the log's next line comes.
    expect(counted).toEqual([1, 1, 2, 4]);
    const before = folderSnapshot(home.path);
    const again = await importHistory(home, { tool: 'claude-code', source: projects });
    expect(E.isRight(again) && again.right.events).toBe(0);
    expect(folderSnapshot(home.path)).toEqual(before);
  });

  it('reads only its own transcript’s place in the ledger, not the whole ledger', async () => {
    const { home, projects, transcript } = setUp();
    const lines = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    // Another session imported first: its ledger line comes before this transcript's.
    const other = join(projects, '-home-USER-spotter/other.jsonl');
    writeFileSync(
      other,
      readFileSync(
        fileURLToPath(
          new URL('./__fixtures__/real/claude-code/2.1.38-short.jsonl', import.meta.url),
        ),
      ),
    );
    expect(E.isRight(await importHistory(home, { tool: 'claude-code', source: projects }))).toBe(
      true,
    );
    appendFileSync(transcript, `${lines.slice(0, 11).join('\n')}\n`);
    rightOrThrow(await importFromClaudeCodeHook(home, payload('Stop', transcript)));
    // Damage the other session's ledger line (same length, so nothing after it moves): the
    // hook never reads it, while a pass over the whole folder stops on it.
    const ledger = join(home.path, 'imports/claude-code.jsonl');
    const text = readFileSync(ledger, 'utf8');
    expect(text.indexOf('other.jsonl')).toBeLessThan(text.indexOf('258c7280.jsonl'));
    writeFileSync(ledger, `X${text.slice(1)}`);
    appendFileSync(transcript, `${lines.slice(11).join('\n')}\n`);
    expect(
      rightOrThrow(await importFromClaudeCodeHook(home, payload('Stop', transcript))),
    ).toMatchObject({ report: { lines: { read: lines.length - 11 } } });
    const whole = await importHistory(home, { tool: 'claude-code', source: projects });
    expect(E.isLeft(whole) && whole.left.kind).toBe('ledger_damaged');
  });

  it('refuses what is not a hook payload, or names no transcript, and writes nothing', async () => {
    const { home, transcript } = setUp();
    const before = folderSnapshot(home.path);
    for (const [input, reason] of [
      ['not json', 'bad_request'],
      [JSON.stringify({ hook_event_name: 'Stop' }), 'bad_request'],
      [payload('PreToolUse', transcript), 'bad_request'],
      [payload('Stop', 'relative/t.jsonl'), 'bad_request'],
      [payload('Stop', `${transcript}.gone`), 'not_found'],
    ] as const) {
      expect(leftOrThrow(await importFromClaudeCodeHook(home, input)).kind).toBe(reason);
    }
    expect(folderSnapshot(home.path)).toEqual(before);
  });
});
