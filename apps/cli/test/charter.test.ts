import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCharter } from '@mecha/charter';
import { describe, expect, it } from 'vitest';
import { fixtureHome, mecha, mechaJson, snapshot, tempDir } from './helpers.js';

function lines(home: string) {
  const parsed = parseCharter(readFileSync(join(home, 'charter.toml'), 'utf8'));
  if (parsed._tag === 'Left') throw new Error('the charter did not parse');
  return parsed.right;
}

describe('mecha charter', () => {
  it("shows the ranked lines with their sensors and setpoints, and each store's patience", () => {
    const run = mecha(['--home', fixtureHome('rows'), 'charter']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Your charter: 3 lines, highest first. Rank is position; there are no weights.',
    );
    expect(run.stdout).toMatch(
      / {3}1 {2}replies {3}Answer what people send me\.\n\s+sensor outbox_age · setpoint 2d\n/,
    );
    expect(run.stdout).toMatch(/ {3}3 {2}evenings {2}Keep evenings free of work\.\n/);
    expect(run.stdout).toContain('  outbox     2d  (line replies, rank 1)');
    expect(run.stdout).toContain('  requests   3d  (default; no line watches it)');
  });

  it('gives the lines as JSON', () => {
    const { json } = mechaJson<{ lines: { rank: number; id: string; setpoint_ms?: number }[] }>([
      '--home',
      fixtureHome('rows'),
      'charter',
      '--json',
    ]);
    expect(json.lines.map((line) => [line.rank, line.id])).toEqual([
      [1, 'replies'],
      [2, 'unblock'],
      [3, 'evenings'],
    ]);
    expect(json.lines[0]?.setpoint_ms).toBe(172_800_000);
  });

  it('says how to start when the home has no charter', () => {
    const run = mecha(['--home', tempDir(), 'charter']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Your charter is empty.');
  });

  it('refuses to show a charter that does not parse, naming the line and field', () => {
    const home = fixtureHome('rows');
    writeFileSync(join(home, 'charter.toml'), '[[line]]\nid = "x"\ntext = "t"\nsetpoint = "48x"\n');
    const run = mecha(['--home', home, 'charter']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mecha charter: charter\.toml: charter line 1 "x", setpoint: /);
  });
});

describe('editing the charter', () => {
  it('adds a line at a rank, with a sensor and a setpoint, in canonical form', () => {
    const home = fixtureHome('tasks');
    const run = mecha([
      '--home',
      home,
      'charter',
      'add',
      'requests',
      'Close',
      'requests',
      'within',
      'three',
      'days',
      '--sensor',
      'request_closure',
      '--setpoint',
      '72h',
      '--rank',
      '1',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('Added line requests.');
    expect(lines(home)).toEqual([
      {
        id: 'requests',
        text: 'Close requests within three days',
        sensor: 'request_closure',
        setpoint: 259_200_000,
      },
      {
        id: 'replies',
        text: 'Answer what people send me.',
        sensor: 'outbox_age',
        setpoint: 172_800_000,
      },
    ]);
    expect(readFileSync(join(home, 'charter.toml'), 'utf8')).toContain('setpoint = "3d"');
  });

  it('moves, changes, unsets and removes lines', () => {
    const home = fixtureHome('rows');
    expect(mecha(['--home', home, 'charter', 'move', 'evenings', '1']).code).toBe(0);
    expect(lines(home).map((line) => line.id)).toEqual(['evenings', 'replies', 'unblock']);
    expect(
      mecha([
        '--home',
        home,
        'charter',
        'set',
        'replies',
        '--text',
        'Reply within a day',
        '--setpoint',
        '1d',
      ]).code,
    ).toBe(0);
    expect(lines(home)[1]).toEqual({
      id: 'replies',
      text: 'Reply within a day',
      sensor: 'outbox_age',
      setpoint: 86_400_000,
    });
    expect(mecha(['--home', home, 'charter', 'unset', 'replies', '--sensor']).code).toBe(0);
    expect(lines(home)[1]).toEqual({
      id: 'replies',
      text: 'Reply within a day',
      setpoint: 86_400_000,
    });
    expect(mecha(['--home', home, 'charter', 'rm', 'unblock']).code).toBe(0);
    expect(lines(home).map((line) => line.id)).toEqual(['evenings', 'replies']);
  });

  const refusals: readonly [string, readonly string[], number, RegExp][] = [
    ['an unknown line', ['rm', 'nowhere'], 1, /no charter line has the id "nowhere"/],
    [
      'a rank past the end',
      ['move', 'replies', '9'],
      1,
      /rank 9 is not a position in this charter/,
    ],
    ['a sensor another line carries', ['set', 'evenings', '--sensor', 'outbox_age'], 1, /sensor/],
    ['an id already used', ['add', 'replies', 'again'], 1, /replies/],
    ['an id that is no id', ['add', 'My Line', 'text'], 2, /id/],
    [
      'an unknown sensor',
      ['add', 'x', 'text', '--sensor', 'mood'],
      2,
      /--sensor takes outbox_age, question_latency or request_closure, not "mood"/,
    ],
    ['a setpoint that is no duration', ['set', 'replies', '--setpoint', '48'], 2, /--setpoint: /],
    ['a rank that is no number', ['move', 'replies', 'top'], 2, /RANK takes a whole number/],
    ['nothing to change', ['set', 'replies'], 2, /say what to change/],
  ];
  it.each(refusals)(
    'refuses %s, in one line, leaving the file as it was',
    (_what, args, code, message) => {
      const home = fixtureHome('rows');
      const before = snapshot(home);
      const run = mecha(['--home', home, 'charter', ...args]);
      expect(run.code).toBe(code);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(snapshot(home)).toEqual(before);
    },
  );

  it("refuses every edit from a run's shell, even with a person present", () => {
    const home = fixtureHome('tasks');
    const before = snapshot(home);
    const run = mecha(['--home', home, 'charter', 'add', 'mine', 'A line a model wrote'], {
      MECHA_SESSION_ID: 's-present-run',
      MECHA_RUN_ID: 'run-present',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('only a person edits the charter');
    expect(snapshot(home)).toEqual(before);
  });

  it('refuses to edit a charter that does not parse, rather than overwrite it', () => {
    const home = fixtureHome('rows');
    writeFileSync(join(home, 'charter.toml'), 'this is not toml = = =\n');
    const before = snapshot(home);
    const run = mecha(['--home', home, 'charter', 'add', 'x', 'text']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mecha charter add: the charter was not changed: charter\.toml: /);
    expect(snapshot(home)).toEqual(before);
  });
});
