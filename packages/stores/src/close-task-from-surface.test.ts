import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GoalRef } from '@mecha/appraisal-core';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { closeTaskFromSurface, reopenTaskFromSurface } from './close-task-from-surface.js';
import { type MechaHome, openHome } from './open-home.js';
import { createSessionRecorder } from './session-recorder.js';
import { sessionsForTask } from './sessions-for-task.js';

let ids = 0;

async function homeWithTask(): Promise<{ path: string; home: MechaHome }> {
  const path = tempDir();
  const home = openHome(path, { newId: (prefix) => `${prefix}-${++ids}` });
  const put = await home.board.put([
    { v: 1, kind: 'task', id: 'task-1', title: 'Totals', status: 'next' },
  ]);
  expect(E.isRight(put)).toBe(true);
  return { path, home };
}

async function recordRun(
  home: MechaHome,
  sessionId: string,
  options: { readonly goal?: GoalRef; readonly personPresent?: boolean; readonly surface?: string },
): Promise<string> {
  const session = createSessionRecorder(home, { sessionId });
  const run = await session.startRun({
    surface: options.surface ?? 'task',
    ...(options.goal === undefined ? {} : { goal: options.goal }),
    ...(options.personPresent === undefined ? {} : { personPresent: options.personPresent }),
  });
  return rightOrThrow(run, 'starting the run').runId;
}

function hook(path: string, name: string, script: string): void {
  mkdirSync(join(path, 'hooks'), { recursive: true });
  writeFileSync(join(path, 'hooks', name), `#!/bin/sh\n${script}\n`);
  chmodSync(join(path, 'hooks', name), 0o755);
}

async function closuresOf(home: MechaHome): Promise<number> {
  const read = await home.closures.read();
  return read.state === 'unreadable' ? 0 : read.records.length;
}

describe('sessionsForTask', () => {
  it('finds only the sessions whose runs named the task as their goal', async () => {
    const { home } = await homeWithTask();
    await recordRun(home, '20260925T090000-aaaa0001', { goal: { kind: 'task', id: 'task-1' } });
    await recordRun(home, '20260925T090000-aaaa0002', { goal: { kind: 'task', id: 'task-2' } });
    await recordRun(home, '20260925T090000-aaaa0003', { goal: { kind: 'project', id: 'task-1' } });
    await recordRun(home, '20260925T090000-aaaa0004', {});
    const found = await sessionsForTask(home, 'task-1');
    expect(found).toEqual({
      state: 'read',
      sessionIds: ['20260925T090000-aaaa0001'],
      unreadable: [],
    });
  });
});

describe('closeTaskFromSurface', () => {
  it('closes as the owner from a surface with no registration, finding the sessions itself', async () => {
    const { home } = await homeWithTask();
    await recordRun(home, '20260925T090000-bbbb0001', { goal: { kind: 'task', id: 'task-1' } });
    const closed = await closeTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'done',
      surface: 'web',
      env: {},
    });
    const done = rightOrThrow(closed);
    expect(done.state).toBe('closed');
    expect(done.sessionsFrom).toBe('runs');
    expect(done.closure).toMatchObject({
      who: 'owner',
      surface: 'web',
      session_ids: ['20260925T090000-bbbb0001'],
      appraisal_line: done.appraisalLine,
    });
    expect(done.closureLine).toMatch(/^Closed task-1: next → done \(closure close-\d+\)\.$/);
    expect(done.hookFailures).toEqual([]);
  });

  it('refuses a run registered with nobody present, whatever the request says, and writes nothing', async () => {
    const { home } = await homeWithTask();
    const runId = await recordRun(home, '20260925T090000-cccc0001', {
      goal: { kind: 'task', id: 'task-1' },
      personPresent: false,
    });
    const closed = await closeTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'done',
      surface: 'cli',
      env: { MECHA_SESSION_ID: '20260925T090000-cccc0001', MECHA_RUN_ID: runId },
      sessionIds: ['20260925T090000-cccc0001'],
    });
    expect(leftOrThrow(closed)).toMatchObject({ kind: 'nobody_present' });
    expect(await closuresOf(home)).toBe(0);
  });

  it("closes for a run a person is in, on that run's surface", async () => {
    const { home } = await homeWithTask();
    const runId = await recordRun(home, '20260925T090000-dddd0001', {
      goal: { kind: 'task', id: 'task-1' },
      personPresent: true,
      surface: 'slack',
    });
    const closed = await closeTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'dropped',
      surface: 'cli',
      env: { MECHA_SESSION_ID: '20260925T090000-dddd0001', MECHA_RUN_ID: runId },
    });
    expect(rightOrThrow(closed).closure).toMatchObject({
      who: 'agent_with_approval',
      surface: 'slack',
    });
  });

  it('counts a run whose registration is missing as nobody present', async () => {
    const { home } = await homeWithTask();
    const closed = await closeTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'done',
      surface: 'cli',
      env: { MECHA_SESSION_ID: '20260925T090000-eeee0001', MECHA_RUN_ID: 'run-x' },
      sessionIds: ['20260925T090000-eeee0001'],
    });
    expect(leftOrThrow(closed)).toMatchObject({ kind: 'nobody_present' });
  });

  it('closes a task no run worked on, saying that no session worked it', async () => {
    const { home } = await homeWithTask();
    const closed = await closeTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'dropped',
      surface: 'cli',
      env: {},
    });
    expect(rightOrThrow(closed)).toMatchObject({
      state: 'closed',
      appraisalLine: "mecha's appraisal of task-1: no session worked this task",
    });
    expect(await closuresOf(home)).toBe(1);
  });

  it('lets pre_task_close refuse, with its first line, before anything is written', async () => {
    const { path, home } = await homeWithTask();
    hook(path, 'pre_task_close', 'echo "not on a Friday\u001b[2J" >&2; exit 3');
    const closed = await closeTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'done',
      surface: 'cli',
      env: {},
      sessionIds: ['20260925T090000-ffff0001'],
    });
    expect(leftOrThrow(closed)).toEqual({
      kind: 'hook_refused',
      message: 'refused by hooks/pre_task_close: not on a Friday[2J',
    });
    expect(await closuresOf(home)).toBe(0);
  });

  it('returns a failed task_closed hook as a value; the closure stands', async () => {
    const { path, home } = await homeWithTask();
    hook(path, 'task_closed', 'exit 1');
    const closed = await closeTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'done',
      surface: 'cli',
      env: {},
      sessionIds: ['20260925T090000-ffff0002'],
    });
    expect(rightOrThrow(closed).hookFailures).toEqual([
      { hook: 'task_closed', message: 'hooks/task_closed exited 1' },
    ]);
    expect(await closuresOf(home)).toBe(1);
  });
});

describe('reopenTaskFromSurface', () => {
  it('reopens a done task, naming the closure it undoes and the credit withdrawn', async () => {
    const { home } = await homeWithTask();
    const closed = rightOrThrow(
      await closeTaskFromSurface(home, {
        taskId: 'task-1',
        to: 'done',
        surface: 'cli',
        env: {},
        sessionIds: ['20260925T090000-abab0001'],
      }),
    );
    const reopened = await reopenTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'next',
      surface: 'cli',
      env: {},
      reason: 'the totals were wrong',
    });
    expect(rightOrThrow(reopened).reopenLine).toContain(`undoing ${closed.closure.closure_id}`);
    expect(rightOrThrow(reopened).creditLine).toMatch(/signs against the session/);
  });

  it('refuses a run registered with nobody present', async () => {
    const { home } = await homeWithTask();
    const runId = await recordRun(home, '20260925T090000-abab0002', { personPresent: false });
    const reopened = await reopenTaskFromSurface(home, {
      taskId: 'task-1',
      to: 'next',
      surface: 'cli',
      env: { MECHA_SESSION_ID: '20260925T090000-abab0002', MECHA_RUN_ID: runId },
    });
    expect(leftOrThrow(reopened)).toMatchObject({ kind: 'nobody_present' });
  });
});
