import { describe, expect, it } from 'vitest';
import { memoryPorts, unreadable } from '../__fixtures__/memory-ports.js';
import { closure, outcome, session, staged } from '../__fixtures__/records.js';
import { appraiseClosure } from './closure-appraisal.js';

describe('appraiseClosure', () => {
  it('prints one line for the task and leaves out the closure’s own entry', async () => {
    const ports = memoryPorts({
      sessions: [session('s-1', [{ stop: 'turn_ceiling' }])],
      closures: [closure('c-1', 'task-1a2b3c4d', 'done', ['s-1'])],
    });
    const result = await appraiseClosure(ports, {
      taskId: 'task-1a2b3c4d',
      to: 'done',
      sessionIds: ['s-1'],
      closureId: 'c-1',
      projectId: 'project-aurora',
    });
    expect(result.line).toBe(
      "mecha's appraisal of task-1a2b3c4d: Distress · −0.5 (0 positive, 1 negative signal)",
    );
    expect(result.follow_up).toMatchObject({
      original_task_id: 'task-1a2b3c4d',
      project_id: 'project-aurora',
      cut_short: true,
      channels: ['counter'],
    });
  });

  it('stages nothing for a rejected draft’s distress, and nothing for a drop', async () => {
    const stores = {
      sessions: [session('s-1')],
      outbox: [staged('d-1', 's-1'), outcome('d-1', 'rejected')],
    };
    const done = await appraiseClosure(memoryPorts(stores), {
      taskId: 'task-1',
      to: 'done',
      sessionIds: ['s-1'],
    });
    expect(done).toMatchObject({ label: 'distress', follow_up: null, negative_signals: 1 });
    const ceiling = { sessions: [session('s-1', [{ stop: 'loop' }])] };
    const dropped = await appraiseClosure(memoryPorts(ceiling), {
      taskId: 'task-1',
      to: 'dropped',
      sessionIds: ['s-1'],
    });
    expect(dropped.follow_up).toBeNull();
  });

  it('folds several sessions and says when some could not be read', async () => {
    const ports = memoryPorts({
      sessions: [
        session('s-1'),
        session('s-2'),
        { listing: session('s-3').listing, transcript: unreadable() },
      ],
      outbox: [
        staged('d-1', 's-1'),
        outcome('d-1', 'sent_unchanged'),
        staged('d-2', 's-2'),
        outcome('d-2', 'sent_unchanged'),
      ],
    });
    const result = await appraiseClosure(ports, {
      taskId: 'task-1',
      to: 'done',
      sessionIds: ['s-1', 's-2', 's-3', 's-1'],
    });
    expect(result).toMatchObject({
      positive_signals: 2,
      sessions_appraised: ['s-1', 's-2'],
      sessions_unreadable: ['s-3'],
      partial: true,
      line: "mecha's appraisal of task-1: +2.0… (2 positive, 0 negative signals)",
    });
  });

  it('says so when no session worked the task or none could be read, and never prints a zero', async () => {
    const none = await appraiseClosure(memoryPorts({}), {
      taskId: 'task-1',
      to: 'done',
      sessionIds: [],
    });
    expect(none).toMatchObject({
      line: "mecha's appraisal of task-1: no session worked this task",
      label: null,
      valence: null,
      partial: false,
    });
    const lost = await appraiseClosure(memoryPorts({}), {
      taskId: 'task-1',
      to: 'done',
      sessionIds: ['s-gone'],
    });
    expect(lost).toMatchObject({
      line: "mecha's appraisal of task-1: its session could not be read",
      label: null,
      partial: true,
    });
  });

  it('stages a follow-up with no project when the task has none, and reads owner outcomes across sessions', async () => {
    const ports = memoryPorts({
      sessions: [session('s-1', [{ stop: 'empty_output' }]), session('s-2')],
      outbox: [staged('d-2', 's-2'), outcome('d-2', 'sent_unchanged')],
      ownerOutcomes: [
        {
          v: 1,
          outcome_id: 'o-2',
          at: '2026-09-26T09:00:00Z',
          draft_id: 'd-2',
          session_id: 's-2',
          kind: 'confirmed_error',
        },
      ],
    });
    const result = await appraiseClosure(ports, {
      taskId: 'task-7',
      to: 'done',
      sessionIds: ['s-1', 's-2'],
    });
    expect(result.label).toBe('embarrassment');
    expect(result.follow_up).toEqual({
      original_task_id: 'task-7',
      label: 'embarrassment',
      cut_short: true,
      channels: ['counter', 'commitment'],
      title: 'Follow up on task-7: embarrassment, cut short (counter, commitment)',
    });
  });
});
