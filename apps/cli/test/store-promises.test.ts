// What the CLI shows when a store breaks one of the home's promises: truncated, deleted, or
// holding a hostile file name.
import { existsSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureHome, fixtureNow, mecha, mechaJson, snapshot } from './helpers.js';

describe('a store the manifest lists, truncated to 0 bytes', () => {
  it('reads as unreadable and its counts as unknown, never as 0', () => {
    const home = fixtureHome('rows');
    const args = ['--home', home, 'sessions', 'appraise', '--json'];
    const whole = mechaJson(args, fixtureNow).json;
    expect(whole.goal_put_to_owner).toBeGreaterThan(0);
    truncateSync(join(home, 'questions/questions.jsonl'), 0);
    const { run, json } = mechaJson(args, fixtureNow);
    expect(run.code).toBe(0);
    expect(json).toMatchObject({ questions_read: false, goal_put_to_owner: null });
    const human = mecha(['--home', home, 'sessions', 'appraise'], fixtureNow);
    expect(human.stdout).toContain(
      'questions: questions/questions.jsonl is empty, but manifest.json lists it as created',
    );
  });
});

describe('a deleted store', () => {
  it('is never recreated by closing a task: the command fails, says how to recover, writes nothing', () => {
    const home = fixtureHome('tasks');
    rmSync(join(home, 'closures/closures.jsonl'));
    const before = snapshot(home);
    const run = mecha(['--home', home, 'tasks', 'set', 'task-good', '--status', 'done']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /closures\/closures\.jsonl was created in this home and has vanished/,
    );
    expect(run.stderr).toMatch(/Restore it from a backup/);
    expect(existsSync(join(home, 'closures/closures.jsonl'))).toBe(false);
    expect(snapshot(home)).toEqual(before);
  });
});

describe('a file name holding terminal escape sequences', () => {
  it('reaches the terminal stripped of its control characters', () => {
    const home = fixtureHome('rows');
    // An OSC sequence that would retitle the terminal: ESC ] 0 ; … BEL.
    writeFileSync(join(home, 'sessions', 'x\u001b]0;owned\u0007.jsonl'), '');
    const run = mecha(['--home', home, 'sessions', 'appraise'], fixtureNow);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('file name is not a session id');
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).not.toContain('\u0007');
    expect(run.stdout).toContain('x]0;owned.jsonl');
  });
});
