import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureHome, jsonl, mecha, mechaJson, snapshot } from './helpers.js';

interface Closure {
  closure_id: string;
  task_id: string;
  from: string;
  to: string;
  who: string;
  surface: string;
  session_ids: string[];
  person_present: boolean;
  appraisal_line?: string;
  reopens?: string;
  reason?: string;
}
interface Row {
  kind: string;
  id: string;
  title: string;
  status: string;
  project_id?: string;
}

/** Runs `mecha tasks set TASK --status STATUS …more` against a home. */
const setTask = (home: string, task: string, status: string, ...more: string[]) =>
  mecha(['--home', home, 'tasks', 'set', task, '--status', status, ...more]);
const closures = (home: string) => jsonl<Closure>(join(home, 'closures/closures.jsonl'));
function board(home: string): Row[] {
  const rows = new Map<string, Row>();
  for (const row of jsonl<Row>(join(home, 'board/board.jsonl')))
    rows.set(`${row.kind}:${row.id}`, row);
  return [...rows.values()];
}

describe('closing a task through the owner path', () => {
  it('finds the sessions whose runs named the task when --session is not given', () => {
    const home = fixtureHome('tasks');
    const run = setTask(home, 'task-good', 'done');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("mecha's appraisal of task-good: Pride");
    expect(closures(home).at(-1)).toMatchObject({
      task_id: 'task-good',
      to: 'done',
      session_ids: ['s-good'],
    });
  });

  it('writes the closure with its appraisal line, then the board, and prints the line', () => {
    const home = fixtureHome('tasks');
    const run = setTask(home, 'task-good', 'done', '--session', 's-good');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "mecha's appraisal of task-good: Pride · +1.0 (1 positive, 0 negative signals)\n",
    );
    const closure = closures(home).at(-1);
    expect(closure).toMatchObject({
      task_id: 'task-good',
      from: 'next',
      to: 'done',
      who: 'owner',
      surface: 'cli',
      session_ids: ['s-good'],
      person_present: true,
      appraisal_line:
        "mecha's appraisal of task-good: Pride · +1.0 (1 positive, 0 negative signals)",
    });
    expect(run.stdout).toContain(`closure ${closure?.closure_id}`);
    expect(board(home).find((row) => row.id === 'task-good')?.status).toBe('done');
    expect(run.stdout).not.toContain('follow-up');
    expect(run.stdout).not.toContain('last open task');
  });

  it('stages exactly one follow-up for a done run that was cut short, built from typed fields', () => {
    const home = fixtureHome('tasks');
    const run = setTask(home, 'task-cut', 'done', '--session', 's-cut');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "mecha's appraisal of task-cut: Distress · \u22121.0 (0 positive, 1 negative signal)",
    );
    const title = 'Follow up on task-cut: distress, cut short (counter)';
    expect(run.stdout).toMatch(
      new RegExp(
        `Staged one follow-up: task-[0-9a-f]{8} "${title.replace(/[()]/g, '\\$&')}" \\(inbox\\)`,
      ),
    );
    const followUps = board(home).filter((row) => row.title === title);
    expect(followUps).toHaveLength(1);
    expect(followUps[0]?.status).toBe('inbox');
    expect(JSON.stringify(followUps[0])).not.toContain('Reconcile the ledger');
  });

  it('never stages a follow-up for a dropped task', () => {
    const home = fixtureHome('tasks');
    const run = setTask(home, 'task-cut', 'dropped', '--session', 's-cut');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('follow-up');
    expect(board(home).filter((row) => row.title.startsWith('Follow up'))).toHaveLength(0);
  });

  it("prints the project's reading when it closes the project's last open task", () => {
    const home = fixtureHome('tasks');
    const run = setTask(home, 'task-a1', 'done', '--session', 's-proj');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('That was the last open task of proj-a.');
    expect(run.stdout).toContain(
      "mecha's appraisal of proj-a: +1.0 \u22121.0 over 1 session (distress 1)",
    );
  });

  it('reopens a closed task, recording the closure it undoes and the reason', () => {
    const home = fixtureHome('tasks');
    expect(setTask(home, 'task-good', 'done', '--session', 's-good').code).toBe(0);
    const done = closures(home).at(-1);
    const run = setTask(home, 'task-good', 'next', '--reason', 'the totals were wrong');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Reopened task-good: done → next`);
    expect(closures(home).at(-1)).toMatchObject({
      task_id: 'task-good',
      from: 'done',
      to: 'next',
      reopens: done?.closure_id,
      reason: 'the totals were wrong',
      session_ids: ['s-good'],
    });
    const { json } = mechaJson(['--home', home, 'sessions', 'appraise', 's-good', '--json']);
    expect(json.label).toBe('distress');
  });

  it('moves a task between open statuses without a closure', () => {
    const home = fixtureHome('tasks');
    const run = setTask(home, 'task-b2', 'next');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Moved task-b2: inbox → next.\n');
    expect(closures(home)).toHaveLength(1);
  });
});

describe('tasks list and add', () => {
  it('lists the open tasks, titles stripped of control characters', () => {
    const run = mecha(['--home', fixtureHome('tasks'), 'tasks', 'list']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('5 tasks (1 inbox, 3 next, 1 waiting)');
    expect(run.stdout).not.toContain('task-a2');
    expect(run.stdout).not.toContain('\u001b');
  });

  it('adds a task and lists it', () => {
    const home = fixtureHome('tasks');
    const run = mecha([
      '--home',
      home,
      'tasks',
      'add',
      'Call',
      'the',
      'venue',
      '--project',
      'proj-b',
      '--status',
      'next',
    ]);
    expect(run.code).toBe(0);
    const id = /Added (task-[0-9a-f]{8})/.exec(run.stdout)?.[1];
    const { json } = mechaJson<{ tasks: Row[] }>([
      '--home',
      home,
      'tasks',
      'list',
      '--project',
      'proj-b',
      '--json',
    ]);
    expect(json.tasks.find((row) => row.id === id)).toMatchObject({
      title: 'Call the venue',
      status: 'next',
    });
  });
});

describe('tasks add refusals', () => {
  it('refuses a due date that is not one as a usage error naming the flag, and writes nothing', () => {
    const home = fixtureHome('tasks');
    const before = snapshot(home);
    const run = mecha(['--home', home, 'tasks', 'add', 'Call', '--due', 'someday']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'mecha tasks add: --due takes a date (2026-09-30) or a time (2026-09-30T17:00:00Z), not "someday" (see \'mecha tasks add --help\')\n',
    );
    expect(snapshot(home)).toEqual(before);
  });
});

describe('a run with nobody present', () => {
  const refusals: readonly [string, Record<string, string>, RegExp][] = [
    [
      'a run registered with nobody present',
      { MECHA_SESSION_ID: 's-absent-run', MECHA_RUN_ID: 'run-absent' },
      /run run-absent is registered with nobody present/,
    ],
    [
      'a run whose registration does not say a person is present',
      { MECHA_SESSION_ID: 's-silent-run', MECHA_RUN_ID: 'run-silent' },
      /run run-silent is registered with nobody present/,
    ],
    [
      'a run the home has no registration of',
      { MECHA_SESSION_ID: 's-absent-run', MECHA_RUN_ID: 'run-forged' },
      /has no registration of run run-forged/,
    ],
    [
      'a session the home does not hold',
      { MECHA_SESSION_ID: 's-nowhere', MECHA_RUN_ID: 'run-x' },
      /could not be read/,
    ],
    ['a run id without its session', { MECHA_RUN_ID: 'run-present' }, /must both name the run/],
  ];
  it.each(refusals)('is refused for %s, and nothing is written', (_what, env, message) => {
    const home = fixtureHome('tasks');
    const before = snapshot(home);
    const run = mecha(
      ['--home', home, 'tasks', 'set', 'task-good', '--status', 'done', '--session', 's-good'],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(snapshot(home)).toEqual(before);
  });

  it('refuses a reopen too', () => {
    const home = fixtureHome('tasks');
    expect(setTask(home, 'task-good', 'done', '--session', 's-good').code).toBe(0);
    const before = snapshot(home);
    const run = mecha(['--home', home, 'tasks', 'set', 'task-good', '--status', 'next'], {
      MECHA_SESSION_ID: 's-absent-run',
      MECHA_RUN_ID: 'run-absent',
    });
    expect(run.code).toBe(1);
    expect(snapshot(home)).toEqual(before);
  });

  it("lets a run a person is in close a task, recorded as the agent's with approval on the run's surface", () => {
    const home = fixtureHome('tasks');
    const run = mecha(
      ['--home', home, 'tasks', 'set', 'task-good', '--status', 'done', '--session', 's-good'],
      {
        MECHA_SESSION_ID: 's-present-run',
        MECHA_RUN_ID: 'run-present',
      },
    );
    expect(run.code).toBe(0);
    expect(closures(home).at(-1)).toMatchObject({
      who: 'agent_with_approval',
      surface: 'web',
      person_present: true,
    });
  });
});

describe('hooks', () => {
  function hook(home: string, name: string, script: string): void {
    mkdirSync(join(home, 'hooks'), { recursive: true });
    const path = join(home, 'hooks', name);
    writeFileSync(path, `#!/bin/sh\n${script}\n`);
    chmodSync(path, 0o755);
  }

  it('pre_task_close refuses with its message: exit 1, nothing written', () => {
    const home = fixtureHome('tasks');
    hook(
      home,
      'pre_task_close',
      'cat > /dev/null; echo "the board is frozen until Monday" >&2; exit 3',
    );
    const before = snapshot(home);
    const run = setTask(home, 'task-good', 'done', '--session', 's-good');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'mecha tasks set: refused by hooks/pre_task_close: the board is frozen until Monday\n',
    );
    expect(snapshot(home)).toEqual(before);
  });

  it('pre_task_close that exists but cannot run refuses too', () => {
    const home = fixtureHome('tasks');
    hook(home, 'pre_task_close', 'exit 0');
    chmodSync(join(home, 'hooks', 'pre_task_close'), 0o644);
    const run = setTask(home, 'task-good', 'done', '--session', 's-good');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('hooks/pre_task_close is not executable');
  });

  it('pre_task_close is shown the move and lets it through with exit 0', () => {
    const home = fixtureHome('tasks');
    hook(home, 'pre_task_close', `cat > "$MECHA_HOME/pre.json"`);
    const run = setTask(home, 'task-good', 'done', '--session', 's-good');
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'pre.json'), 'utf8'))).toMatchObject({
      hook: 'pre_task_close',
      task_id: 'task-good',
      from: 'next',
      to: 'done',
      session_ids: ['s-good'],
      who: 'owner',
    });
  });

  it('task_closed and task_reopened are told, with the closure record as JSON on stdin', () => {
    const home = fixtureHome('tasks');
    hook(home, 'task_closed', `cat > "$MECHA_HOME/closed.json"`);
    hook(home, 'task_reopened', `cat > "$MECHA_HOME/reopened.json"`);
    expect(setTask(home, 'task-cut', 'done', '--session', 's-cut').code).toBe(0);
    const closed = JSON.parse(readFileSync(join(home, 'closed.json'), 'utf8'));
    expect(closed).toMatchObject({
      hook: 'task_closed',
      closure: { task_id: 'task-cut', to: 'done' },
      appraisal: { label: 'distress' },
    });
    expect(closed.follow_up.title).toBe('Follow up on task-cut: distress, cut short (counter)');
    expect(setTask(home, 'task-cut', 'next').code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, 'reopened.json'), 'utf8'))).toMatchObject({
      hook: 'task_reopened',
      closure: {
        task_id: 'task-cut',
        from: 'done',
        to: 'next',
        reopens: closed.closure.closure_id,
      },
    });
  });

  it('a told hook that fails leaves the move standing and says so on stderr', () => {
    const home = fixtureHome('tasks');
    hook(home, 'task_closed', 'echo "could not notify" >&2; exit 1');
    const run = setTask(home, 'task-good', 'done', '--session', 's-good');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('hooks/task_closed failed: could not notify');
    expect(closures(home).at(-1)?.task_id).toBe('task-good');
  });
});

describe('bad input to tasks set', () => {
  const cases: readonly [string, readonly string[], number, RegExp][] = [
    [
      'a missing task',
      ['task-nowhere', '--status', 'done', '--session', 's-good'],
      1,
      /there is no task "task-nowhere" on the board/,
    ],
    [
      'an ambiguous task prefix',
      ['task-a', '--status', 'done', '--session', 's-good'],
      1,
      /"task-a" matches 2 tasks/,
    ],
    [
      'an unknown status',
      ['task-good', '--status', 'finished'],
      2,
      /unknown status "finished": use inbox, next, waiting, done, dropped/,
    ],
    ['no status', ['task-good'], 2, /say where to move it/],
    [
      'a status the task already has',
      ['task-good', '--status', 'next'],
      1,
      /task-good is already next: nothing changed/,
    ],
    [
      'a session id that is not one',
      ['task-good', '--status', 'done', '--session', 'not an id'],
      2,
      /--session takes a session id/,
    ],
    [
      'a reason on a close',
      ['task-good', '--status', 'done', '--session', 's-good', '--reason', 'x'],
      2,
      /--reason is for reopening/,
    ],
  ];
  it.each(cases)(
    'refuses %s in one line on stderr and writes nothing',
    (_what, args, code, message) => {
      const home = fixtureHome('tasks');
      const before = snapshot(home);
      const run = mecha(['--home', home, 'tasks', 'set', ...args]);
      expect(run.code).toBe(code);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(snapshot(home)).toEqual(before);
    },
  );

  it('leaves the task open and writes nothing when the closure record cannot be written', () => {
    const home = fixtureHome('tasks');
    rmSync(join(home, 'closures/closures.jsonl'));
    mkdirSync(join(home, 'closures/closures.jsonl'));
    const before = snapshot(home);
    const run = setTask(home, 'task-good', 'done', '--session', 's-good');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^mecha tasks set: task task-good was not closed: closures\/closures\.jsonl is a directory, not a file\n$/,
    );
    expect(snapshot(home)).toEqual(before);
    expect(board(home).find((row) => row.id === 'task-good')?.status).toBe('next');
  });
});

describe('re-filing a task', () => {
  it('re-files and closes in one command: --project P --status done', () => {
    const home = fixtureHome('tasks');
    const run = setTask(home, 'task-good', 'done', '--project', 'p-refiled');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Re-filed task-good: .* → p-refiled\.\n/);
    expect(run.stdout).toContain("mecha's appraisal of task-good: Pride");
    expect(board(home).find((row) => row.id === 'task-good')).toMatchObject({
      status: 'done',
      project_id: 'p-refiled',
    });
  });

  it('re-files without moving when only --project is given', () => {
    const home = fixtureHome('tasks');
    const run = mecha(['--home', home, 'tasks', 'set', 'task-good', '--project', 'p-other']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Re-filed task-good: .* → p-other\.\n$/);
    expect(board(home).find((row) => row.id === 'task-good')).toMatchObject({
      status: 'next',
      project_id: 'p-other',
    });
  });

  it('refuses a project id that is not an id, writing nothing (exit 2)', () => {
    const home = fixtureHome('tasks');
    const before = snapshot(home);
    const run = mecha(['--home', home, 'tasks', 'set', 'task-good', '--project', 'no spaces']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--project takes a project id');
    expect(snapshot(home)).toEqual(before);
  });
});
