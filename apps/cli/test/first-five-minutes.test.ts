import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';

// Issue 27: a new user's first five minutes, defects 4 and 6, each through the built command.

const logs = fileURLToPath(
  new URL('../../../packages/importers/src/__fixtures__/', import.meta.url),
);

function freshHome(): string {
  const home = join(tempDir('mecha-first-'), 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  return home;
}

describe('reads never write (defect 4)', () => {
  it('leaves a fresh home byte for byte as it was, appraiser status included', () => {
    const home = freshHome();
    const before = snapshot(home);
    for (const args of [
      ['appraiser', 'status'],
      ['appraiser', 'status', '--json'],
      ['sessions', 'appraise'],
      ['sessions', 'list'],
      ['sessions', 'health'],
      ['tasks', 'list'],
      ['charter'],
      ['doctor'],
      ['doctor', '--json'],
      ['distill', '--dry-run'],
    ]) {
      const run = mecha(['--home', home, ...args]);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(snapshot(home), args.join(' ')).toEqual(before);
    }
  });

  it('appraiser status on a home with no appraiser memory says how it gets one', () => {
    const home = freshHome();
    const human = mecha(['--home', home, 'appraiser', 'status']);
    expect(human.stdout).toContain('appraiser/memory.sqlite does not exist yet');
    expect(human.stdout).toContain('mecha appraiser add');
    const { json } = mechaJson<{ memory: string; flags: { writes: boolean } }>([
      '--home',
      home,
      'appraiser',
      'status',
      '--json',
    ]);
    expect(json.memory).toBe('absent');
    expect(typeof json.flags.writes).toBe('boolean');
  });

  it('doctor lists every file the home may hold, present or not', () => {
    const home = freshHome();
    const { json } = mechaJson<{
      files: { path: string; present: boolean; writtenBy: string }[];
    }>(['--home', home, 'doctor', '--json']);
    const paths = json.files.map((file) => file.path);
    for (const path of [
      'manifest.json',
      'config.toml',
      'charter.toml',
      'sessions/',
      'board/board.jsonl',
      'outbox/outbox.jsonl',
      'appraisals/appraisals.jsonl',
      'learning/distilled.jsonl',
      'appraiser/memory.sqlite',
      'appraiser/journal.jsonl',
      'imports/claude-code.jsonl',
      'imports/codex.jsonl',
      'nightly.lock',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(json.files.find((file) => file.path === 'manifest.json')?.present).toBe(true);
    expect(json.files.find((file) => file.path === 'appraiser/memory.sqlite')?.present).toBe(false);
    const human = mecha(['--home', home, 'doctor']).stdout;
    expect(human).toMatch(/Files this home may hold:/);
    expect(human).toMatch(/absent +appraiser\/memory\.sqlite/);
  });
});

describe('usage and help (defect 6)', () => {
  it('mecha with no command is a usage error: exit 2, the usage on stderr', () => {
    const bare = mecha([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('Usage: mecha');
    expect(mecha(['--help']).code).toBe(0);
    expect(mecha(['help']).code).toBe(0);
    expect(mecha(['--version']).code).toBe(0);
  });

  it('the top-level help names sessions list and sessions compare', () => {
    const help = mecha(['--help']).stdout;
    const sessionsLine = help.split('\n').find((line) => line.trimStart().startsWith('sessions'));
    expect(sessionsLine).toContain('list');
    expect(sessionsLine).toContain('compare');
  });

  it('sessions list keeps its columns for the claude-code kind', () => {
    const home = freshHome();
    const claude = join(tempDir('mecha-first-logs-'), 'claude-code');
    cpSync(join(logs, 'claude-code'), claude, { recursive: true });
    expect(mecha(['--home', home, 'import', 'claude-code', claude]).code).toBe(0);
    const codex = join(tempDir('mecha-first-logs-'), 'codex');
    cpSync(join(logs, 'codex'), codex, { recursive: true });
    expect(mecha(['--home', home, 'import', 'codex', codex]).code).toBe(0);
    const list = mecha(['--home', home, 'sessions', 'list', '--days', '10000']);
    expect(list.code).toBe(0);
    const rows = list.stdout.split('\n').filter((line) => / \d+ runs? /.test(line));
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.some((row) => row.includes('claude-code'))).toBe(true);
    const runsColumn = new Set(rows.map((row) => row.search(/ \d+ runs? /)));
    expect([...runsColumn], list.stdout).toHaveLength(1);
  });

  it('the README asks for the Node version engines says', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const engines = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        engines: { node: string };
      }
    ).engines.node;
    const minimum = /^>=\s*(\d+\.\d+)/.exec(engines)?.[1];
    expect(minimum).toBeDefined();
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`Node.js ${minimum} or later`);
  });

  it('nightly --help points only at files an install has', () => {
    // `npm install -g` puts mecha in npm's prefix (`npm prefix -g`/bin), never ~/.local/bin: the
    // timer names the path `command -v mecha` prints rather than one nothing installs.
    const help = mecha(['nightly', '--help']).stdout;
    expect(help).not.toContain('.local/bin');
    expect(help).toContain('command -v mecha');
  });
});
