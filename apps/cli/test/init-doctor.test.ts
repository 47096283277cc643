import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSessionRecorder, openHome, rightOrThrow } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { fixtureHome, fixtureNow, mecha, mechaJson, snapshot, tempDir } from './helpers.js';

describe('mecha init', () => {
  it('creates a home that every command then reads, and is idempotent', () => {
    const home = join(tempDir(), 'home');
    const first = mecha(['init', '--home', home]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Created a mecha home at ${home}.`);
    // The first five minutes go on with an import: init names it (issue 27).
    expect(first.stdout).toContain(`mecha --home ${home} import claude-code`);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).toContain('name = "graph"');
    const before = snapshot(home);
    const again = mechaJson<{ created: string[]; kept: string[] }>([
      'init',
      '--home',
      home,
      '--json',
    ]);
    expect(again.run.code).toBe(0);
    expect(again.json.created).toEqual([]);
    expect(again.json.kept).toEqual(['manifest.json', 'config.toml', 'charter.toml']);
    expect(snapshot(home)).toEqual(before);
    const appraised = mecha(['--home', home, 'sessions', 'appraise']);
    expect(appraised.code).toBe(0);
    expect(mecha(['--home', home, 'charter']).code).toBe(0);
  });
});

describe('a home that does not exist', () => {
  it('is an error that says how to create one, and nothing is created', () => {
    const home = join(tempDir(), 'nothing');
    for (const args of [
      ['sessions', 'appraise'],
      ['tasks', 'list'],
      ['tasks', 'add', 'x'],
      ['charter'],
    ]) {
      const run = mecha(['--home', home, ...args]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `there is no mecha home at ${home}: create one with 'mecha init --home ${home}'`,
      );
    }
    expect(existsSync(home)).toBe(false);
  });

  it('--home followed by an option is a usage error, not a folder named after the option', () => {
    const run = mecha(['--home', '--json', 'tasks', 'list']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('option \'--home\' needs a folder, but got the option "--json"');
  });
});

describe('mecha doctor', () => {
  it('says a missing home is missing and exits 1', () => {
    const home = join(tempDir(), 'nothing');
    const run = mecha(['--home', home, 'doctor']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`mecha init --home ${home}`);
  });

  it('names every damaged file and line in its JSON, and --repair compacts with a copy beside', () => {
    const home = fixtureHome('rows');
    appendFileSync(join(home, 'closures/closures.jsonl'), '{"v":2,"closure_id":"close-torn"');
    const { run, json } = mechaJson<{
      healthy: boolean;
      stores: { file: string; state: string; skipped?: { line: number; reason: string }[] }[];
    }>(['--home', home, 'doctor', '--json']);
    expect(run.code).toBe(1);
    expect(json.healthy).toBe(false);
    expect(json.stores.find((store) => store.file === 'closures/closures.jsonl')).toMatchObject({
      state: 'partial',
      skipped: [{ line: 7, reason: 'torn final line: no newline and not JSON' }],
    });
    const human = mecha(['--home', home, 'doctor']);
    expect(human.stdout).toContain('closures/closures.jsonl line 7: torn final line');
    expect(human.stdout).toContain("Run 'mecha doctor --repair'");

    const repaired = mecha(['--home', home, 'doctor', '--repair']);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(
      /Repaired closures\/closures\.jsonl: kept 6 lines, discarded 1; the original is closures\/closures\.jsonl\.damaged-/,
    );
    expect(
      readdirSync(join(home, 'closures')).filter((name) => name.includes('.damaged-')),
    ).toHaveLength(1);
    const after = mechaJson(['--home', home, 'sessions', 'appraise', '--json'], fixtureNow);
    expect(after.json.closures_read).toBe(true);
  });
});

describe('mecha doctor: charter sensors', () => {
  it('shows each sensored line with its setpoint and says when it is pinned', async () => {
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    const opened = openHome(home);
    for (let index = 0; index < 5; index++) {
      const session = createSessionRecorder(opened);
      rightOrThrow(
        await session.startRun({
          surface: 'cli',
          conditions: {
            charter: [
              {
                line: 'replies',
                rank: 1,
                sensor: 'outbox_age',
                store: 'outbox',
                state: 'past_setpoint',
                setpoint_ms: 7_200_000,
                setpoint_source: 'setpoint',
                level_ms: 9_000_000 + index,
                withdrawn_saturated: false,
              },
            ],
          },
        }),
        'a run start',
      );
    }
    const run = mecha(['--home', home, 'doctor']);
    expect(run.stdout).toContain(
      'replies (outbox_age, setpoint 2h): 5 of 5 runs past it; pinned: past its setpoint in every run read',
    );
  });
});

describe('mecha sessions list', () => {
  it('lists each session with the label and valence its own appraisal gives', () => {
    const home = fixtureHome('rows');
    const { run, json } = mechaJson<{
      sessions: {
        session_id: string;
        state: string;
        runs: number | null;
        label: string | null;
        valence: { positive: number; negative: number } | null;
      }[];
    }>(['--home', home, 'sessions', 'list', '--json'], fixtureNow);
    expect(run.code).toBe(0);
    expect(json.sessions.length).toBeGreaterThan(10);
    const starts = json.sessions.map((row) => row.session_id);
    expect(new Set(starts).size).toBe(starts.length);
    for (const row of json.sessions.slice(0, 6)) {
      const one = mechaJson<{ label: string; valence: { positive: number; negative: number } }>(
        ['--home', home, 'sessions', 'appraise', row.session_id, '--json'],
        fixtureNow,
      ).json;
      expect({ id: row.session_id, label: row.label, valence: row.valence }).toMatchObject({
        id: row.session_id,
        label: one.label,
        valence: { positive: one.valence.positive, negative: one.valence.negative },
      });
    }
  });

  it('lists an unreadable transcript as unreadable, with no numbers, and names it', () => {
    const home = fixtureHome('rows');
    appendFileSync(join(home, 'sessions/s-steer.jsonl'), '{"v":1,"at":"2026-09-17T09:40:00Z"');
    const { json } = mechaJson<{
      not_read_whole: { source: string; what: string }[];
    }>(['--home', home, 'sessions', 'list', '--json'], fixtureNow);
    expect(json.not_read_whole).toContainEqual({
      source: 'session s-steer',
      what: expect.stringMatching(/sessions\/s-steer\.jsonl line \d+: torn final line/),
    });
    const human = mecha(['--home', home, 'sessions', 'list', '-n', '3'], fixtureNow);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/… and \d+ more/);
  });
});
