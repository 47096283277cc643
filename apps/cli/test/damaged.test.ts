import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureHome, fixtureNow, mecha, mechaJson, snapshot } from './helpers.js';

/** The rows home, damaged: torn lines, a store replaced by a folder, a transcript that is a folder. */
function damagedHome(): string {
  const home = fixtureHome('rows');
  appendFileSync(
    join(home, 'sessions/s-steer.jsonl'),
    '{"v":1,"at":"2026-09-17T09:40:00Z","run_id":"run-s-st',
  );
  appendFileSync(join(home, 'closures/closures.jsonl'), '{"v":2,"closure_id":"close-torn"');
  rmSync(join(home, 'outbox/outbox.jsonl'));
  mkdirSync(join(home, 'outbox/outbox.jsonl'));
  rmSync(join(home, 'sessions/s-deny.jsonl'));
  mkdirSync(join(home, 'sessions/s-deny.jsonl'));
  return home;
}

describe('a damaged home', () => {
  const home = damagedHome();
  const before = snapshot(home);
  const { run, json } = mechaJson(['--home', home, 'sessions', 'appraise', '--json'], fixtureNow);

  it('still reads, exits 0, and writes nothing', () => {
    expect(run.code).toBe(0);
    expect(snapshot(home)).toEqual(before);
  });

  it('reads as partial and says which sources were not read whole', () => {
    expect(json.valence).toMatchObject({ partial: true });
    expect(json).toMatchObject({ outbox_read: false, closures_read: false, questions_read: true });
  });

  it('has null, never 0, for what it could not count', () => {
    expect(json).toMatchObject({
      reasoned_rejections: null,
      unattributed_rejections: null,
      successes: { by_kind: { draft_sent_unchanged: null }, exemplars: null, partial: true },
    });
    expect((json.successes as { unreadable: string[] }).unreadable).toContain('outbox');
  });

  it('counts a transcript it could not open as unreadable, not as a smaller population', () => {
    expect(json).toMatchObject({ sessions_read: 31, sessions_unreadable: 1 });
  });

  it('names what could not be read in the human readout', () => {
    const human = mecha(['--home', home, 'sessions', 'appraise'], fixtureNow);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Not read whole, so the readout is partial');
    expect(human.stdout).toContain('outbox: outbox/outbox.jsonl is a directory, not a file');
    expect(human.stdout).toMatch(/closures: closures\/closures\.jsonl line 7: torn final line/);
    expect(human.stdout).toContain(
      'session s-deny: the head of its transcript (its first run) could not be read',
    );
    expect(human.stdout).toMatch(/session s-steer: sessions\/s-steer\.jsonl line 5: /);
    expect(human.stdout).toContain(
      'rejections  unknown with your reason · unknown with a reason not recorded as yours',
    );
    expect(human.stdout).toContain('sources     not read whole: outbox, closures');
  });

  it('reads health and successes as partial too, exiting 0', () => {
    const health = mechaJson(['--home', home, 'sessions', 'health', '--json'], fixtureNow);
    expect(health.run.code).toBe(0);
    expect(health.json).toMatchObject({ partial: true, sessions_unreadable: 1 });
    const successes = mechaJson(['--home', home, 'sessions', 'successes', '--json']);
    expect(successes.run.code).toBe(0);
    expect(successes.json).toMatchObject({
      partial: true,
      exemplars: null,
      by_kind: { draft_sent_unchanged: null },
    });
  });
});

describe('bad input to sessions appraise', () => {
  const home = fixtureHome('rows');
  const cases: readonly [string, readonly string[], number, RegExp][] = [
    ['an unknown session prefix', ['s-nothing'], 1, /no session matches "s-nothing"/],
    [
      'an ambiguous session prefix',
      ['s-wf'],
      1,
      /"s-wf" matches 4 sessions \(s-wf-artifact, s-wf-cancelled/,
    ],
    [
      '--days that is not a number',
      ['--days', 'thirty'],
      2,
      /--days takes a whole number from 1 to 999,999,999, not "thirty"/,
    ],
    ['--days 0', ['--days', '0'], 2, /--days takes a whole number/],
    ['--days without a value', ['--days'], 2, /--days/],
    ['a --kind that is no surface', ['--kind', 'Web!'], 2, /--kind takes a recorded surface/],
    ['-n without --text', ['-n', '3'], 2, /-n only limits --text/],
    ['an unknown option', ['--frobnicate'], 2, /unknown option '--frobnicate'/],
  ];
  it.each(cases)(
    'refuses %s in one line on stderr and writes nothing',
    (_what, args, code, message) => {
      const before = snapshot(home);
      const run = mecha(['--home', home, 'sessions', 'appraise', ...args]);
      expect(run.code).toBe(code);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(snapshot(home)).toEqual(before);
    },
  );
});
