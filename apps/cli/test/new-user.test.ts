// Defects a new user met, each pinned against the built command.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mecha, tempDir } from './helpers.js';

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
