import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GoalRef } from '@mecha/appraisal-core';
import { mintOwnerEdit } from '@mecha/charter/owner';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { type MechaHome, openHome } from '../open-home.js';
import { createSessionRecorder } from '../session-recorder.js';
import { addTask } from './add-task.js';
import { answerParkedQuestion } from './answer-question.js';
import { decideDraft } from './draft-verdict.js';
import { editCharter } from './edit-charter.js';
import { moveTask } from './move-task.js';

let ids = 0;
const freshHome = (): MechaHome => openHome(tempDir(), { newId: (p) => `${p}-${++ids}` });

async function boardOf(home: MechaHome) {
  const read = await home.board.read();
  return read.state === 'unreadable' ? null : read.records;
}

async function homeWithTasks(): Promise<MechaHome> {
  const home = freshHome();
  const put = await home.board.put([
    { v: 1, kind: 'task', id: 'task-a1', title: 'One', status: 'inbox' },
    { v: 1, kind: 'task', id: 'task-a2', title: 'Two', status: 'next' },
    { v: 1, kind: 'task', id: 'task-b1', title: 'Three', status: 'next' },
  ]);
  expect(E.isRight(put)).toBe(true);
  return home;
}

async function runIn(
  home: MechaHome,
  sessionId: string,
  options: { readonly goal?: GoalRef; readonly personPresent?: boolean } = {},
) {
  const session = createSessionRecorder(home, { sessionId });
  const run = await session.startRun({ surface: 'task', ...options });
  expect(E.isRight(run)).toBe(true);
  return { session, runId: E.isRight(run) ? run.right.runId : '' };
}

describe('addTask', () => {
  it('puts a task in the inbox under a fresh id and says so', async () => {
    const home = freshHome();
    const added = rightOrThrow(await addTask(home, { title: 'Write totals', projectId: 'books' }));
    expect(added.state).toBe('added');
    expect(added.task.id).toMatch(/^task-[0-9a-f]{8}$/);
    expect(added.line).toBe(`Added ${added.task.id} (inbox).`);
    expect(await boardOf(home)).toEqual([added.task]);
  });

  it('refuses a record the board refuses and writes nothing', async () => {
    const home = freshHome();
    const added = await addTask(home, { title: 'x', due: 'someday' });
    expect(leftOrThrow(added)).toMatchObject({ kind: 'not_written' });
    expect(leftOrThrow(added).message).toMatch(/^the task was not added: /);
    expect(await boardOf(home)).toEqual([]);
  });
});

describe('moveTask', () => {
  it('moves between open statuses by a unique prefix', async () => {
    const home = await homeWithTasks();
    const moved = await moveTask(home, { query: 'task-b', to: 'waiting', surface: 'web', env: {} });
    expect(rightOrThrow(moved)).toEqual({
      state: 'moved',
      taskId: 'task-b1',
      from: 'next',
      to: 'waiting',
      line: 'Moved task-b1: next → waiting.',
    });
    expect((await boardOf(home))?.find((row) => row.id === 'task-b1')).toMatchObject({
      status: 'waiting',
    });
  });

  it.each([
    ['an ambiguous prefix', { query: 'task-a', to: 'next' }, 'ambiguous', /matches 2 tasks/],
    ['a missing task', { query: 'task-z', to: 'next' }, 'not_found', /no task "task-z"/],
    ['the status it has', { query: 'task-a2', to: 'next' }, 'unchanged', /already next/],
    [
      'a reason on a plain move',
      { query: 'task-a1', to: 'next', reason: 'x' },
      'bad_request',
      /--reason is for reopening/,
    ],
    [
      'sessions on a plain move',
      { query: 'task-a1', to: 'next', sessionIds: ['s-1'] },
      'bad_request',
      /--session is for closing/,
    ],
  ] as const)('refuses %s and writes nothing', async (_what, request, reason, message) => {
    const home = await homeWithTasks();
    const before = await boardOf(home);
    const moved = await moveTask(home, { ...request, surface: 'cli', env: {} });
    expect(leftOrThrow(moved)).toMatchObject({ kind: reason });
    expect(leftOrThrow(moved).message).toMatch(message);
    expect(await boardOf(home)).toEqual(before);
  });

  it('closes through the closure path, then refuses to close again, then reopens', async () => {
    const home = await homeWithTasks();
    await runIn(home, '20260925T090000-cccc0001', { goal: { kind: 'task', id: 'task-a2' } });
    const closed = await moveTask(home, { query: 'task-a2', to: 'done', surface: 'web', env: {} });
    expect(rightOrThrow(closed).state).toBe('closed');
    const again = await moveTask(home, {
      query: 'task-a2',
      to: 'dropped',
      surface: 'web',
      env: {},
    });
    expect(leftOrThrow(again)).toMatchObject({ kind: 'unchanged' });
    expect(leftOrThrow(again).message).toMatch(/reopen it before closing it again/);
    const reopened = await moveTask(home, {
      query: 'task-a2',
      to: 'next',
      surface: 'web',
      env: {},
      reason: 'wrong totals',
    });
    expect(rightOrThrow(reopened).state).toBe('reopened');
  });

  it('re-files an open task under a project, its status unchanged', async () => {
    const home = await homeWithTasks();
    const moved = await moveTask(home, {
      query: 'task-a1',
      projectId: 'p-books',
      surface: 'cli',
      env: {},
    });
    expect(rightOrThrow(moved)).toEqual({
      state: 'refiled',
      taskId: 'task-a1',
      fromProject: undefined,
      toProject: 'p-books',
      line: 'Re-filed task-a1: no project → p-books.',
    });
    expect((await boardOf(home))?.find((row) => row.id === 'task-a1')).toMatchObject({
      status: 'inbox',
      project_id: 'p-books',
    });
  });

  it('re-files and closes in one act: the closure and the project reading read the new project', async () => {
    const home = await homeWithTasks();
    await runIn(home, '20260925T090000-cccc0002', { goal: { kind: 'task', id: 'task-a2' } });
    const moved = await moveTask(home, {
      query: 'task-a2',
      projectId: 'p-books',
      to: 'done',
      surface: 'cli',
      env: {},
    });
    const closed = rightOrThrow(moved);
    expect(closed.state).toBe('closed');
    expect(closed.refiled?.line).toBe('Re-filed task-a2: no project → p-books.');
    // task-a2 was the only task of p-books, so closing it reads the project.
    expect(closed.state === 'closed' && closed.project?.projectId).toBe('p-books');
    expect((await boardOf(home))?.find((row) => row.id === 'task-a2')).toMatchObject({
      status: 'done',
      project_id: 'p-books',
    });
  });

  it('refuses to re-file a closed task unless it is reopened, and then re-files it', async () => {
    const home = await homeWithTasks();
    await moveTask(home, { query: 'task-a2', to: 'done', surface: 'cli', env: {} });
    const before = await boardOf(home);
    const refused = await moveTask(home, {
      query: 'task-a2',
      projectId: 'p-books',
      surface: 'cli',
      env: {},
    });
    expect(leftOrThrow(refused)).toMatchObject({ kind: 'unchanged' });
    expect(leftOrThrow(refused).message).toMatch(/reopen it to file it/);
    expect(await boardOf(home)).toEqual(before);
    const reopened = await moveTask(home, {
      query: 'task-a2',
      projectId: 'p-books',
      to: 'next',
      surface: 'cli',
      env: {},
    });
    expect(rightOrThrow(reopened).state).toBe('reopened');
    expect(rightOrThrow(reopened).refiled?.toProject).toBe('p-books');
    expect((await boardOf(home))?.find((row) => row.id === 'task-a2')).toMatchObject({
      status: 'next',
      project_id: 'p-books',
    });
  });

  it('refuses a move that names neither a status nor a project', async () => {
    const home = await homeWithTasks();
    const moved = await moveTask(home, { query: 'task-a1', surface: 'cli', env: {} });
    expect(leftOrThrow(moved)).toMatchObject({ kind: 'bad_request' });
  });
});

describe('editCharter', () => {
  const capability = mintOwnerEdit('web', 'ada');

  it('applies the changes in order and writes them', async () => {
    const home = freshHome();
    const edited = await editCharter(home, {
      capability,
      env: {},
      changes: [
        { op: 'add', line: { id: 'replies', text: 'Answer people' } },
        { op: 'add', line: { id: 'books', text: 'Keep the books' }, rank: 1 },
        { op: 'set_sensor', id: 'replies', sensor: 'outbox_age' },
      ],
    });
    expect(rightOrThrow(edited).state).toBe('edited');
    const read = home.readCharter();
    expect(read.state === 'read' && read.charter.map((line) => line.id)).toEqual([
      'books',
      'replies',
    ]);
    expect(rightOrThrow(edited).charter).toEqual(read.state === 'read' ? read.charter : null);
  });

  it('writes nothing when one change is rejected', async () => {
    const home = freshHome();
    const edited = await editCharter(home, {
      capability,
      env: {},
      changes: [
        { op: 'add', line: { id: 'replies', text: 'Answer people' } },
        { op: 'remove', id: 'nowhere' },
      ],
    });
    expect(leftOrThrow(edited)).toMatchObject({ kind: 'rejected' });
    expect(home.readCharter()).toEqual({ state: 'read', charter: [] });
  });

  it('calls a malformed line a bad request, and a repeated id a rejection', async () => {
    const home = freshHome();
    const add = (id: string) =>
      editCharter(home, { capability, env: {}, changes: [{ op: 'add', line: { id, text: 'x' } }] });
    expect(leftOrThrow(await add('Not An Id'))).toMatchObject({ kind: 'bad_request' });
    expect(rightOrThrow(await add('fine'))).toMatchObject({ state: 'edited' });
    expect(leftOrThrow(await add('fine'))).toMatchObject({ kind: 'rejected' });
  });

  it('refuses inside a run, even one a person is in', async () => {
    const home = freshHome();
    const { runId } = await runIn(home, '20260925T090000-dddd0001', { personPresent: true });
    const edited = await editCharter(home, {
      capability,
      env: { MECHA_SESSION_ID: '20260925T090000-dddd0001', MECHA_RUN_ID: runId },
      changes: [{ op: 'add', line: { id: 'replies', text: 'Answer people' } }],
    });
    expect(leftOrThrow(edited)).toMatchObject({ kind: 'nobody_present' });
    expect(home.readCharter()).toEqual({ state: 'read', charter: [] });
  });

  it('loses no edit when many surfaces edit at once (read and write under one lock)', async () => {
    const path = tempDir();
    const homes = Array.from({ length: 6 }, () => openHome(path));
    const results = await Promise.all(
      homes.map((home, index) =>
        editCharter(home, {
          capability,
          env: {},
          changes: [{ op: 'add', line: { id: `line${index}`, text: `Line ${index}` } }],
        }),
      ),
    );
    expect(results.every(E.isRight)).toBe(true);
    const read = openHome(path).readCharter();
    expect(read.state === 'read' && read.charter.map((line) => line.id).sort()).toEqual(
      homes.map((_, index) => `line${index}`),
    );
  });
});

describe('decideDraft', () => {
  it('records the owner as sender from a terminal, and refuses a second verdict', async () => {
    const home = freshHome();
    const { session } = await runIn(home, '20260925T090000-eeee0001');
    const staged = await session.stageDraft({
      tool: 'mail_send',
      taint: 'clean',
      draftId: 'draft-x1',
    });
    expect(E.isRight(staged)).toBe(true);
    const sent = await decideDraft(home, { query: 'draft-x', verdict: 'send', env: {} });
    expect(rightOrThrow(sent)).toEqual({
      state: 'decided',
      draftId: 'draft-x1',
      outcome: 'sent_unchanged',
      sender: 'owner',
      line: 'Sent draft-x1 as written.',
    });
    const again = await decideDraft(home, { query: 'draft-x1', verdict: 'reject', env: {} });
    expect(leftOrThrow(again)).toMatchObject({ kind: 'unchanged' });
    const outbox = readFileSync(join(home.path, 'outbox', 'outbox.jsonl'), 'utf8');
    expect(outbox.trim().split('\n')).toHaveLength(2);
  });

  it("records a run's shell as run_shell, never as the owner", async () => {
    const home = freshHome();
    const { session, runId } = await runIn(home, '20260925T090000-eeee0002', {
      personPresent: true,
    });
    await session.stageDraft({ tool: 'mail_send', taint: 'clean', draftId: 'draft-y1' });
    const sent = await decideDraft(home, {
      query: 'draft-y1',
      verdict: 'send_edited',
      text: 'Hello all',
      env: { MECHA_SESSION_ID: '20260925T090000-eeee0002', MECHA_RUN_ID: runId },
    });
    expect(rightOrThrow(sent)).toMatchObject({
      state: 'decided',
      sender: 'run_shell',
      outcome: 'sent_edited',
    });
  });

  it('refuses a draft never staged, and a reason on anything but a rejection', async () => {
    const home = freshHome();
    expect(
      leftOrThrow(await decideDraft(home, { query: 'draft-no', verdict: 'reject', env: {} })),
    ).toMatchObject({ kind: 'not_found' });
    expect(
      leftOrThrow(
        await decideDraft(home, { query: 'draft-no', verdict: 'send', reason: 'x', env: {} }),
      ),
    ).toMatchObject({ kind: 'bad_request' });
  });
});

describe('answerParkedQuestion', () => {
  it('answers a parked question once', async () => {
    const home = freshHome();
    const { session } = await runIn(home, '20260925T090000-ffff0001');
    await session.parkQuestion({ questionId: 'q-1' });
    const answered = await answerParkedQuestion(home, {
      query: 'q-1',
      surface: 'slack',
      text: 'Friday',
      env: {},
    });
    expect(rightOrThrow(answered)).toEqual({
      state: 'answered',
      questionId: 'q-1',
      sessionId: '20260925T090000-ffff0001',
      text: 'Friday',
      line: 'Answered q-1 (session 20260925T090000-ffff0001).',
    });
    const again = await answerParkedQuestion(home, {
      query: 'q-1',
      surface: 'slack',
      text: 'Monday',
      env: {},
    });
    expect(leftOrThrow(again)).toMatchObject({ kind: 'unchanged' });
  });

  it('refuses a run registered with nobody present, and writes nothing', async () => {
    const home = freshHome();
    const { session, runId } = await runIn(home, '20260925T090000-ffff0002', {
      personPresent: false,
    });
    await session.parkQuestion({ questionId: 'q-2' });
    const answered = await answerParkedQuestion(home, {
      query: 'q-2',
      surface: 'cli',
      text: 'yes',
      env: { MECHA_SESSION_ID: '20260925T090000-ffff0002', MECHA_RUN_ID: runId },
    });
    expect(leftOrThrow(answered)).toMatchObject({ kind: 'nobody_present' });
    const read = await home.questions.read();
    expect(read.state !== 'unreadable' && read.records.map((r) => r.type)).toEqual(['parked']);
  });
});
