import { describe, expect, it } from 'vitest';
import { memoryPorts, partial, unreadable } from '../__fixtures__/memory-ports.js';
import { closure, outcome, session, staged, task } from '../__fixtures__/records.js';
import type { BoardRecord } from '../schemas/board.js';
import { appraiseProject } from './project-appraisal.js';

const board: BoardRecord[] = [
  { v: 1, kind: 'project', id: 'project-aurora', title: 'Aurora' },
  task('task-1', { projectId: 'project-aurora', status: 'done' }),
  task('task-2', { projectId: 'project-aurora', status: 'done' }),
  task('task-3', { projectId: 'project-aurora', status: 'dropped' }),
  task('task-4', { projectId: 'project-elsewhere', status: 'done', title: 'Aurora' }),
];

const stores = {
  board,
  sessions: [
    session('s-1'),
    session('s-2', [{ stop: 'turn_ceiling' }]),
    session('s-4'),
    { listing: session('s-5').listing, transcript: unreadable() },
  ],
  outbox: [
    staged('d-1', 's-1'),
    outcome('d-1', 'sent_unchanged'),
    staged('d-4', 's-4'),
    outcome('d-4', 'rejected'),
  ],
  closures: [
    closure('c-1', 'task-1', 'done', ['s-1']),
    closure('c-2', 'task-2', 'done', ['s-2', 's-5']),
    closure('c-3', 'task-3', 'dropped', []),
    closure('c-4', 'task-4', 'done', ['s-4']),
  ],
};

describe('appraiseProject', () => {
  it('sums positive and negative apart and counts labels over the sessions linked to its tasks', async () => {
    const result = await appraiseProject(memoryPorts(stores), 'project-aurora', {
      followUpStaged: true,
    });
    expect(result).toMatchObject({
      confident: true,
      tasks: 3,
      positive: 2,
      negative: 0.5,
      tasks_never_delegated: 1,
      sessions_appraised: 2,
      sessions_not_appraisable: 1,
      partial: true,
      follow_up_staged: true,
    });
    if (!result.confident) return;
    expect(result.labels).toMatchObject({ neutral: 1, distress: 1 });
    expect(result.line).toBe(
      "mecha's appraisal of project-aurora: +2.0 −0.5… over 2 sessions (neutral 1, distress 1); 1 task never delegated; 1 session not appraisable; a follow-up was staged under this project",
    );
  });

  it('takes membership from each row’s project_id, never a matching name', async () => {
    const result = await appraiseProject(memoryPorts(stores), 'project-elsewhere');
    expect(result).toMatchObject({
      confident: true,
      tasks: 1,
      negative: 1,
      sessions_appraised: 1,
      partial: false,
    });
  });

  it('gives no confident reading when the board answer is missing or truncated', async () => {
    const missing = await appraiseProject(
      memoryPorts({ ...stores, board: unreadable() }),
      'project-aurora',
    );
    expect(missing).toEqual({
      confident: false,
      project_id: 'project-aurora',
      reason: 'board_unreadable',
      line: "mecha's appraisal of project-aurora: no confident reading (the board answer was missing)",
    });
    const truncated = await appraiseProject(
      memoryPorts({ ...stores, board: partial(board.slice(0, 2)) }),
      'project-aurora',
    );
    expect(truncated).toMatchObject({ confident: false, reason: 'board_truncated' });
    const noClosures = await appraiseProject(
      memoryPorts({ ...stores, closures: unreadable() }),
      'project-aurora',
    );
    expect(noClosures).toMatchObject({ confident: false, reason: 'closures_unreadable' });
  });

  it('says nothing was signed for a project whose sessions signed nothing', async () => {
    const result = await appraiseProject(
      memoryPorts({
        board: [task('task-1', { projectId: 'p-1' })],
        sessions: [session('s-1')],
        closures: [closure('c-1', 'task-1', 'dropped', ['s-1'])],
      }),
      'p-1',
    );
    expect(result.line).toBe("mecha's appraisal of p-1: nothing signed over 1 session (neutral 1)");
  });
});
