import type { BoardRecord } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { summarizeBoard } from './summarize-board.js';

const task = (
  id: string,
  status: 'inbox' | 'next' | 'waiting' | 'done' | 'dropped',
  extra: Partial<{ due: string; holder: 'agent' | 'owner' | 'other'; project_id: string }> = {},
): BoardRecord => ({ v: 1, kind: 'task', id, title: `the title of ${id}`, status, ...extra });

const board: BoardRecord[] = [
  { v: 1, kind: 'project', id: 'project-aurora', title: 'Aurora' },
  task('task-1', 'waiting', { due: '2026-09-30', holder: 'owner', project_id: 'project-aurora' }),
  task('task-2', 'next', { due: '2026-09-20', holder: 'agent' }),
  task('task-3', 'inbox', { due: '2026-09-26T10:00:00+02:00', project_id: 'project-aurora' }),
  task('task-4', 'waiting', { due: '2026-10-02', holder: 'owner' }),
  task('task-5', 'done', { due: '2026-09-01', project_id: 'project-aurora' }),
  task('task-6', 'next', { holder: 'other' }),
];

describe('summarizeBoard', () => {
  it('counts open tasks by status, overdue and due this week by id, and who holds them', () => {
    const summary = summarizeBoard(
      { state: 'read', records: board },
      { today: '2026-09-25', ownTaskId: 'task-1' },
    );
    expect(summary).toEqual({
      state: 'read',
      value: {
        complete: true,
        open: { inbox: 1, next: 2, waiting: 2 },
        overdue: ['task-2'],
        dueThisWeek: ['task-3', 'task-1'],
        waitingOnOwner: 2,
        waitingOnOthers: 1,
        heldByAgent: 1,
        ownTask: {
          id: 'task-1',
          status: 'waiting',
          due: '2026-09-30',
          projectId: 'project-aurora',
          openInProject: 2,
        },
      },
    });
  });

  it('keeps no task title', () => {
    const summary = summarizeBoard({ state: 'read', records: board }, { today: '2026-09-25' });
    expect(JSON.stringify(summary)).not.toContain('title');
  });

  it('marks a board cut short incomplete, and a missing own task as not on the board', () => {
    const summary = summarizeBoard(
      {
        state: 'partial',
        records: board.slice(0, 2),
        skipped: [{ file: 'board', line: 3, reason: 'cut' }],
      },
      { today: '2026-09-25', ownTaskId: 'task-9' },
    );
    expect(summary).toMatchObject({
      state: 'read',
      value: { complete: false, ownTask: 'not_on_board' },
    });
  });

  it('reads an unreadable board as a failed reading, never as an empty board', () => {
    expect(
      summarizeBoard(
        { state: 'unreadable', reason: 'the board server did not answer' },
        { today: '2026-09-25' },
      ),
    ).toEqual({
      state: 'unreadable',
      reason: 'the board server did not answer',
    });
    expect(summarizeBoard({ state: 'read', records: [] }, { today: 'Friday' }).state).toBe(
      'unreadable',
    );
  });
});
