import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { closeTask, reopenTask } from './close-task.js';
import { homeLayout } from './home-layout.js';
import { type MechaHome, openHome } from './open-home.js';

const task = {
  v: 1 as const,
  kind: 'task' as const,
  id: 'task-1',
  title: 'Totals',
  status: 'next' as const,
};
let ids = 0;

async function homeWithTask(): Promise<{ path: string; home: MechaHome }> {
  const path = tempDir();
  const home = openHome(path, {
    clock: () => new Date('2026-09-25T12:00:00Z'),
    newId: (prefix) => `${prefix}-${++ids}`,
  });
  expect(E.isRight(await home.board.put([task]))).toBe(true);
  return { path, home };
}

const owner = { who: 'owner' as const, surface: 'cli', personPresent: true };

async function statusOf(home: MechaHome): Promise<string | undefined> {
  const board = await home.board.read();
  const row =
    board.state === 'unreadable' ? undefined : board.records.find((r) => r.id === 'task-1');
  return row?.kind === 'task' ? row.status : undefined;
}

describe('closeTask', () => {
  it('writes the closure record, then moves the task', async () => {
    const { home } = await homeWithTask();
    const closed = await closeTask(home, {
      ...owner,
      taskId: 'task-1',
      to: 'done',
      sessionIds: ['s-1'],
    });
    expect(E.isRight(closed) && closed.right).toMatchObject({
      v: 2,
      task_id: 'task-1',
      from: 'next',
      to: 'done',
      who: 'owner',
      person_present: true,
      session_ids: ['s-1'],
    });
    expect(await statusOf(home)).toBe('done');
    const closures = await home.closures.read();
    expect(closures.state === 'read' && closures.records).toHaveLength(1);
  });

  it('leaves the board alone when the closure cannot be written', async () => {
    const { path, home } = await homeWithTask();
    mkdirSync(join(path, homeLayout.closures), { recursive: true });
    const closed = await closeTask(home, {
      ...owner,
      taskId: 'task-1',
      to: 'done',
      sessionIds: [],
    });
    expect(E.isLeft(closed) && closed.left.kind).toBe('io');
    expect(await statusOf(home)).toBe('next');
  });

  it('refuses a close with nobody present in the run', async () => {
    const { home } = await homeWithTask();
    const closed = await closeTask(home, {
      ...owner,
      who: 'agent_with_approval',
      personPresent: false,
      taskId: 'task-1',
      to: 'done',
      sessionIds: [],
    });
    expect(E.isLeft(closed) && closed.left.kind).toBe('refused');
    expect(await statusOf(home)).toBe('next');
    expect(await home.closures.read()).toEqual({ state: 'read', records: [] });
  });

  it('changes nothing for a task already closed elsewhere', async () => {
    const { home } = await homeWithTask();
    await closeTask(home, { ...owner, taskId: 'task-1', to: 'done', sessionIds: [] });
    const again = await closeTask(home, {
      ...owner,
      surface: 'slack',
      taskId: 'task-1',
      to: 'dropped',
      sessionIds: [],
    });
    expect(E.isLeft(again) && again.left.message).toMatch(/already done/);
    expect(await statusOf(home)).toBe('done');
    const closures = await home.closures.read();
    expect(closures.state === 'read' && closures.records).toHaveLength(1);
  });

  it('applies a recorded closure whose board write never happened, without a second record', async () => {
    const { path, home } = await homeWithTask();
    mkdirSync(join(path, 'closures'), { recursive: true });
    const recorded = {
      v: 2,
      closure_id: 'close-earlier',
      at: '2026-09-25T11:00:00Z',
      task_id: 'task-1',
      from: 'next',
      to: 'done',
      surface: 'web',
      session_ids: ['s-1'],
      who: 'owner',
      person_present: true,
    };
    writeFileSync(join(path, homeLayout.closures), `${JSON.stringify(recorded)}\n`);
    const closed = await closeTask(home, {
      ...owner,
      taskId: 'task-1',
      to: 'done',
      sessionIds: ['s-1'],
    });
    expect(E.isRight(closed) && closed.right.closure_id).toBe('close-earlier');
    expect(await statusOf(home)).toBe('done');
    expect(readFileSync(join(path, homeLayout.closures), 'utf8').trim().split('\n')).toHaveLength(
      1,
    );
  });

  it('refuses to move a task on a board with damaged lines', async () => {
    const { path, home } = await homeWithTask();
    appendFileSync(join(path, homeLayout.board), 'garbage\n');
    const closed = await closeTask(home, {
      ...owner,
      taskId: 'task-1',
      to: 'done',
      sessionIds: [],
    });
    expect(E.isLeft(closed) && closed.left.message).toMatch(/damaged lines/);
    const compacted = await home.board.compact({ discardDamaged: true });
    expect(compacted).toEqual(E.right({ linesBefore: 1, rows: 1 }));
    expect(
      E.isRight(await closeTask(home, { ...owner, taskId: 'task-1', to: 'done', sessionIds: [] })),
    ).toBe(true);
  });

  it('refuses a task that is not on the board', async () => {
    const { home } = await homeWithTask();
    const closed = await closeTask(home, {
      ...owner,
      taskId: 'task-9',
      to: 'done',
      sessionIds: [],
    });
    expect(E.isLeft(closed) && closed.left.message).toMatch(/no task task-9/);
  });
});

describe('reopenTask', () => {
  it("records the closure it undoes, with its sessions and the owner's reason", async () => {
    const { home } = await homeWithTask();
    const closed = await closeTask(home, {
      ...owner,
      taskId: 'task-1',
      to: 'done',
      sessionIds: ['s-1', 's-2'],
    });
    const reopened = await reopenTask(home, {
      ...owner,
      taskId: 'task-1',
      to: 'next',
      reason: 'the totals are for Lakeside',
    });
    expect(E.isRight(closed) && E.isRight(reopened)).toBe(true);
    if (E.isRight(closed) && E.isRight(reopened)) {
      expect(reopened.right).toMatchObject({
        from: 'done',
        to: 'next',
        reopens: closed.right.closure_id,
        session_ids: ['s-1', 's-2'],
        reason: 'the totals are for Lakeside',
      });
    }
    expect(await statusOf(home)).toBe('next');
  });

  it('refuses to reopen a task that is open', async () => {
    const { home } = await homeWithTask();
    const reopened = await reopenTask(home, { ...owner, taskId: 'task-1', to: 'inbox' });
    expect(E.isLeft(reopened) && reopened.left.message).toMatch(/not closed/);
  });

  it('refuses to reopen when the closure record cannot be read', async () => {
    const { path, home } = await homeWithTask();
    await closeTask(home, { ...owner, taskId: 'task-1', to: 'dropped', sessionIds: [] });
    const file = join(path, homeLayout.closures);
    rmSync(file);
    mkdirSync(file);
    const reopened = await reopenTask(home, { ...owner, taskId: 'task-1', to: 'next' });
    expect(E.isLeft(reopened) && reopened.left.message).toMatch(/closure record could not be read/);
    expect(await statusOf(home)).toBe('dropped');
  });
});

describe('the board', () => {
  it('refuses to close or reopen a task through put', async () => {
    const { home } = await homeWithTask();
    const put = await home.board.put([{ ...task, status: 'done' }]);
    expect(E.isLeft(put) && put.left.message).toMatch(/closeTask/);
    await closeTask(home, { ...owner, taskId: 'task-1', to: 'done', sessionIds: [] });
    const back = await home.board.put([{ ...task, status: 'next' }]);
    expect(E.isLeft(back) && back.left.message).toMatch(/reopenTask/);
  });

  it('reads the last row of each task, in the order tasks first appeared', async () => {
    const { home } = await homeWithTask();
    await home.board.put([
      { v: 1, kind: 'project', id: 'proj-1', title: 'Aurora' },
      { ...task, status: 'waiting', holder: 'other' },
      { ...task, id: 'task-2', title: 'Second' },
    ]);
    const board = await home.board.read();
    expect(board.state === 'read' && board.records.map((row) => row.id)).toEqual([
      'task-1',
      'proj-1',
      'task-2',
    ]);
    expect(await statusOf(home)).toBe('waiting');
    const history = await home.board.history();
    expect(history.state === 'read' && history.records).toHaveLength(4);
  });

  it('compacts the log to one line per row', async () => {
    const { path, home } = await homeWithTask();
    await home.board.put([
      { ...task, status: 'waiting' },
      { ...task, status: 'inbox' },
    ]);
    expect(await home.board.compact()).toEqual(E.right({ linesBefore: 3, rows: 1 }));
    expect(readFileSync(join(path, homeLayout.board), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(await statusOf(home)).toBe('inbox');
  });
});
