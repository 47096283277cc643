// Defects a new user met, each pinned against the built command.
import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureHome, fixtureNow, mecha, mechaJson, snapshot, tempDir } from './helpers.js';

function newHome(): string {
  const home = join(tempDir(), 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  return home;
}

describe('charter set with a sensor another line carries', () => {
  it('names the line being edited as the culprit', () => {
    const home = newHome();
    const add = (...args: string[]) => mecha(['--home', home, 'charter', 'add', ...args]);
    expect(add('replies', 'Answer what people send me.', '--sensor', 'outbox_age').code).toBe(0);
    expect(add('unblock', 'Answer questions.', '--sensor', 'question_latency').code).toBe(0);
    const run = mecha([
      '--home',
      home,
      'charter',
      'set',
      'replies',
      '--sensor',
      'question_latency',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'charter line 1 "replies", sensor: "question_latency" is already watched by charter line 2 "unblock"',
    );
  });
});

describe('charter add with a malformed line', () => {
  it('is a usage error (exit 2) like a bad --sensor; a conflict with the charter stays exit 1', () => {
    const home = newHome();
    const before = snapshot(home);
    const bad = mecha(['--home', home, 'charter', 'add', 'Bad', 'Answer people.']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('id: may hold only lowercase letters');
    expect(snapshot(home)).toEqual(before);
    expect(mecha(['--home', home, 'charter', 'add', 'fine', 'Answer people.']).code).toBe(0);
    const repeated = mecha(['--home', home, 'charter', 'add', 'fine', 'Again.']);
    expect(repeated.code).toBe(1);
    expect(mecha(['--home', home, 'charter', 'rm', 'nosuch']).code).toBe(1);
  });
});

describe('a usage error on a home that does not exist', () => {
  it('is reported as the usage error (exit 2), and a well-formed command as the missing home', () => {
    const nothing = join(tempDir(), 'nothing');
    const bad = mecha(['--home', nothing, 'sessions', 'appraise', '--days', '-1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--days takes a whole number');
    const good = mecha(['--home', nothing, 'sessions', 'appraise', '--days', '1']);
    expect(good.code).toBe(1);
    expect(good.stderr).toContain(`there is no mecha home at ${nothing}`);
  });
});

describe('--kind that no session was recorded under', () => {
  it('is a usage error naming the kinds there are, never a silent empty readout', () => {
    const home = fixtureHome('rows');
    for (const command of ['list', 'appraise', 'health']) {
      const run = mecha(['--home', home, 'sessions', command, '--kind', 'banana'], fixtureNow);
      expect(run.code, command).toBe(2);
      expect(run.stderr, command).toMatch(
        /--kind "banana": no session in this home was recorded under it; the kinds here are .*\bexperiment\b.*\btest\b/,
      );
    }
    const { json } = mechaJson<{ sessions: { surface: string | null }[] }>(
      ['--home', home, 'sessions', 'list', '--json'],
      fixtureNow,
    );
    const surface = json.sessions.find((row) => row.surface !== null)?.surface as string;
    expect(mecha(['--home', home, 'sessions', 'list', '--kind', surface], fixtureNow).code).toBe(0);
  });
});

describe('a task no run worked on', () => {
  it('can be dropped or closed, and the closure line says no session worked it', () => {
    const home = newHome();
    const added = mecha(['--home', home, 'tasks', 'add', 'Water the plants']);
    expect(added.code).toBe(0);
    const id = /task-[0-9a-z]+/.exec(added.stdout)?.[0] as string;
    const dropped = mecha(['--home', home, 'tasks', 'set', id, '--status', 'dropped']);
    expect(dropped.code).toBe(0);
    expect(dropped.stdout).toContain(`mecha's appraisal of ${id}: no session worked this task`);
    const closures = readFileSync(join(home, 'closures/closures.jsonl'), 'utf8');
    expect(JSON.parse(closures.trim())).toMatchObject({
      task_id: id,
      to: 'dropped',
      session_ids: [],
    });
  });
});

describe('argument messages and help', () => {
  const home = newHome();

  it('refuses --days -1 by naming the flag and what it takes', () => {
    const run = mecha(['--home', home, 'sessions', 'appraise', '--days', '-1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--days takes a whole number from 1 to 999,999,999, not "-1"');
  });

  it('names an unknown option in one balanced sentence, with a suggestion', () => {
    const run = mecha(['--home', home, 'sessions', 'appraise', '--jsn']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "mecha sessions appraise: unknown option '--jsn' (did you mean --json?) (see 'mecha sessions appraise --help')\n",
    );
  });

  it('suggests the command meant', () => {
    expect(mecha(['sesions']).stderr).toContain(
      "unknown command 'sesions' (did you mean sessions?)",
    );
    expect(mecha(['sessions', 'lst']).stderr).toContain('(did you mean list?)');
  });

  it('states the real limit of --sessions', () => {
    const run = mecha(['demo', '--sessions', '1000000000']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--sessions takes a whole number from 1 to 100,000');
  });

  it('has mecha help CMD, and no empty Commands: section for a command without subcommands', () => {
    expect(mecha(['help', 'sessions', 'list']).stdout).toMatch(/^Usage: mecha sessions list/);
    for (const name of ['distill', 'demo', 'init', 'doctor']) {
      const help = mecha([name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: mecha ${name}`));
      expect(help.stdout).not.toContain('Commands:');
    }
  });
});

describe('flags that do not apply', () => {
  const home = newHome();

  it('are refused for one session, never silently ignored', () => {
    const run = mecha(['--home', home, 'sessions', 'appraise', '20260925T1131', '--days', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--days narrows the corpus readout; one session has no window to narrow',
    );
  });

  it('-n with --json is refused, since the JSON is the whole set', () => {
    const run = mecha(['--home', home, 'sessions', 'successes', '-n', '2', '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('-n limits the text list; --json gives the whole set');
  });
});

describe('distill --dry-run', () => {
  it('needs no graph server, as its help says', () => {
    const home = newHome();
    rmSync(join(home, 'config.toml'));
    const run = mecha(['--home', home, 'distill', '--dry-run']);
    expect(run.stderr).not.toContain("no [[mcp]] server named 'graph'");
    expect(run.code).toBe(0);
  });
});

describe('tasks set --session', () => {
  it('refuses an unknown session id with exit 2 and writes nothing', () => {
    const home = fixtureHome('tasks');
    const before = snapshot(home);
    const run = mecha([
      '--home',
      home,
      'tasks',
      'set',
      'task-good',
      '--status',
      'done',
      '--session',
      'nosuch',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--session nosuch: no session of this home has that id or prefix');
    expect(snapshot(home)).toEqual(before);
  });

  it('resolves a unique prefix to the whole id in the closure record', () => {
    const home = fixtureHome('tasks');
    const run = mecha([
      '--home',
      home,
      'tasks',
      'set',
      'task-good',
      '--status',
      'done',
      '--session',
      's-goo',
    ]);
    expect(run.code).toBe(0);
    const closures = readFileSync(join(home, 'closures/closures.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(closures.at(-1) as string)).toMatchObject({
      task_id: 'task-good',
      session_ids: ['s-good'],
    });
  });
});

describe('tasks list on a board it cannot read', () => {
  it('fails on stderr with exit 1, never an error printed as output with exit 0', () => {
    const home = fixtureHome('tasks');
    rmSync(join(home, 'board/board.jsonl'));
    mkdirSync(join(home, 'board/board.jsonl'));
    const run = mecha(['--home', home, 'tasks', 'list']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('mecha tasks list: the board could not be read');
  });

  it('points a damaged board at mecha doctor, a command that exists', () => {
    const home = fixtureHome('tasks');
    appendFileSync(join(home, 'board/board.jsonl'), 'garbage\n');
    const run = mecha(['--home', home, 'tasks', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("'mecha doctor --repair' compacts it");
  });
});

describe('--json where a script needs the result', () => {
  it('tasks add gives the new id, and a due date that does not exist is a usage error', () => {
    const home = newHome();
    const bad = mecha(['--home', home, 'tasks', 'add', 'x', '--due', '2026-02-30']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--due takes a date (2026-09-30) or a time (2026-09-30T17:00:00Z), not "2026-02-30"',
    );
    const { run, json } = mechaJson<{ id: string; task: { title: string; status: string } }>([
      '--home',
      home,
      'tasks',
      'add',
      'Call the bank',
      '--due',
      '2026-03-31',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(json.id).toMatch(/^task-/);
    expect(json.task).toMatchObject({ title: 'Call the bank', status: 'inbox' });
    const set = mechaJson<{ state: string; appraisalLine: string; closure: { task_id: string } }>([
      '--home',
      home,
      'tasks',
      'set',
      json.id,
      '--status',
      'dropped',
      '--json',
    ]);
    expect(set.run.code).toBe(0);
    expect(set.json).toMatchObject({
      state: 'closed',
      appraisalLine: `mecha's appraisal of ${json.id}: no session worked this task`,
      closure: { task_id: json.id },
    });
  });
});

describe('charter edits', () => {
  it('take --json and list their options in their help', () => {
    const home = newHome();
    const { run, json } = mechaJson<{ lines: { rank: number; id: string }[] }>([
      '--home',
      home,
      'charter',
      'add',
      'replies',
      'Answer people.',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(json.lines).toMatchObject([{ rank: 1, id: 'replies' }]);
    for (const sub of ['move', 'rm', 'unset']) {
      expect(mecha(['charter', sub, '--help']).stdout).toContain('Options:');
    }
  });
});

describe('--json on a damaged home', () => {
  it('names every damaged file, line and reason, as the text does', () => {
    const home = fixtureHome('rows');
    appendFileSync(join(home, 'outbox/outbox.jsonl'), '{"torn');
    const expected = {
      source: 'outbox',
      what: expect.stringMatching(/^outbox\/outbox\.jsonl line \d+: torn final line/),
    };
    for (const command of [
      ['sessions', 'appraise'],
      ['sessions', 'successes'],
      ['sessions', 'list'],
    ]) {
      const { run, json } = mechaJson(['--home', home, ...command, '--json'], fixtureNow);
      expect(run.code, command.join(' ')).toBe(0);
      expect(json.not_read_whole, command.join(' ')).toEqual([expected]);
    }
  });

  it('names the session whose transcript holds a bad line, where health says partial', () => {
    const home = fixtureHome('rows');
    const { json: list } = mechaJson<{ sessions: { session_id: string }[] }>(
      ['--home', home, 'sessions', 'list', '--json'],
      fixtureNow,
    );
    const id = list.sessions[0]?.session_id as string;
    appendFileSync(join(home, 'sessions', `${id}.jsonl`), 'not json\n');
    const health = mechaJson(['--home', home, 'sessions', 'health', '--json'], fixtureNow);
    expect(health.json.partial).toBe(true);
    expect(health.json.not_read_whole).toEqual([
      { source: `session ${id}`, what: expect.stringContaining(`sessions/${id}.jsonl line`) },
    ]);
    const one = mechaJson(['--home', home, 'sessions', 'appraise', id, '--json'], fixtureNow);
    expect(one.json.not_read_whole).toEqual(health.json.not_read_whole);
  });
});
