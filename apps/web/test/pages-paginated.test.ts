import { addTask, createSessionRecorder, moveTask, openHome, rightOrThrow } from '@mecha/stores';
import { beforeAll, describe, expect, it } from 'vitest';
import { tasksPerPage, tasksPerSection } from '../src/pages/board-page.js';
import { itemsPerPage } from '../src/pages/drafts-page.js';
import { boardApp, emptyHome, origin } from './helpers.js';

// Pages that would grow without bound are paginated: the board lists a few of each status with
// "all N" a link away, done and dropped collapsed; drafts and questions have their own tabs with
// their counts in the navigation. Overdue tasks and long-waiting drafts and questions are flagged.

const day = 86_400_000;
let app: Awaited<ReturnType<typeof boardApp>>['app'];
let inboxClosed: string;
let overdueTask: string;
const nextTasks = tasksPerPage + 5;
const drafts = itemsPerPage + 3;

beforeAll(async () => {
  const path = emptyHome();
  const home = openHome(path);
  for (let index = 0; index < nextTasks; index += 1) {
    rightOrThrow(await addTask(home, { title: `Task ${index}`, status: 'next' }));
  }
  const overdue = rightOrThrow(
    await addTask(home, { title: 'Pay rent', status: 'waiting', due: '2026-01-31' }),
  );
  overdueTask = overdue.task.id;
  const inbox = rightOrThrow(await addTask(home, { title: 'From the inbox', status: 'inbox' }));
  inboxClosed = inbox.task.id;
  const moved = await moveTask(home, { query: inboxClosed, to: 'done', surface: 'cli', env: {} });
  expect(rightOrThrow(moved).state).toBe('closed');
  const recorder = createSessionRecorder(home);
  for (let index = 0; index < drafts; index += 1) {
    rightOrThrow(
      await recorder.stageDraft({ tool: 'mail_send', taint: 'clean', text: `Draft ${index}` }),
    );
  }
  rightOrThrow(await recorder.parkQuestion());
  // Three days on: every draft and the question have waited long.
  ({ app } = await boardApp(path, { now: () => new Date(Date.now() + 3 * day) }));
});

const get = async (path: string) => {
  const response = await app.request(`${origin}${path}`);
  return { status: response.status, text: await response.text() };
};
const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('the board, paginated', () => {
  it('shows a few of each status and links to all of them; done and dropped are collapsed', async () => {
    const { status, text } = await get('/board');
    expect(status).toBe(200);
    expect(count(text, 'data-status="next"')).toBe(tasksPerSection);
    expect(text).toContain(`<a href="/board?status=next">All ${nextTasks} next tasks</a>`);
    expect(text).toMatch(/<details class="closed" id="status-done"><summary><h2>done/);
    expect(text).toContain(`<a href="/board?status=next">next (${nextTasks})</a>`);
  });

  it('lists one status a page at a time, with page numbers', async () => {
    const first = await get('/board?status=next');
    expect(count(first.text, 'data-status="next"')).toBe(tasksPerPage);
    expect(first.text).toContain('page 1 of 2');
    expect(first.text).toContain('<a href="/board?status=next&amp;page=2" rel="next">Next</a>');
    const second = await get('/board?status=next&page=2');
    expect(count(second.text, 'data-status="next"')).toBe(nextTasks - tasksPerPage);
    expect((await get('/board?status=later')).status).toBe(400);
    expect((await get('/board?status=next&page=0')).status).toBe(400);
  });

  it('flags an overdue task', async () => {
    const { text } = await get('/board');
    const task = text.slice(text.indexOf(`id="task-${overdueTask}"`));
    expect(task.slice(0, task.indexOf('</li>'))).toContain('<span class="flag">overdue</span>');
    expect(text).toContain('1 open task is past its due date.');
  });

  it('reopens a task to where it was closed from by default', async () => {
    const { text } = await get('/board?status=done');
    const task = text.slice(text.indexOf(`id="task-${inboxClosed}"`));
    expect(task.slice(0, task.indexOf('</li>'))).toContain('<option value="inbox" selected>');
  });
});

describe('drafts and questions, each its own tab', () => {
  it('counts both in the navigation on every page', async () => {
    for (const path of ['/', '/board', '/drafts', '/questions', '/charter']) {
      const { text } = await get(path);
      expect(text, path).toContain(`data-count="drafts">(${drafts}`);
      expect(text, path).toContain('data-count="questions">(1');
    }
  });

  it('paginates the drafts and flags those waiting long', async () => {
    const first = await get('/drafts');
    expect(count(first.text, 'data-draft=')).toBe(itemsPerPage);
    expect(first.text).toContain(`${drafts} drafts waiting, page 1 of 2`);
    expect(count(first.text, 'data-long-wait=""')).toBe(itemsPerPage);
    const second = await get('/drafts?page=2');
    expect(count(second.text, 'data-draft=')).toBe(drafts - itemsPerPage);
    expect(first.text).not.toContain('data-question=');
    expect((await get('/drafts?page=x')).status).toBe(400);
  });

  it('lists the parked questions on their own page, flagged when parked long', async () => {
    const { text } = await get('/questions');
    expect(count(text, 'data-question=')).toBe(1);
    expect(text).toContain('parked 3 days');
    expect(text).not.toContain('data-draft=');
  });
});
