import type { ConditionsSnapshot } from '@mecha/appraisal-core';
import { readValue } from '../reading.js';
import type { SituationInput } from '../situation-brief.js';
import type { BoardSummary } from '../summarize-board.js';
import { day, hour } from './conditions.js';

// A fictional delegated task with every field known; tests only.

export const knownConditions: ConditionsSnapshot = {
  backlog: {
    outbox: { count: 1, complete: true },
    questions: { count: 0, complete: true },
    requests: { count: 0, complete: true },
  },
  commitments: {
    outbox: {
      complete: true,
      items: [
        {
          owed: true,
          id: 'd-7f3e',
          age_ms: 2 * day + 3 * hour,
          patience_ms: 2 * day,
          patience_source: 'setpoint',
          past_patience: true,
          guilt: 0.06,
          line: { id: 'replies', rank: 2 },
        },
      ],
    },
    questions: { complete: true, items: [] },
    requests: { complete: true, items: [] },
  },
};

export const knownBoard: BoardSummary = {
  complete: true,
  open: { inbox: 1, next: 1, waiting: 2 },
  overdue: ['task-2'],
  dueThisWeek: ['task-3', 'task-1'],
  waitingOnOwner: 2,
  waitingOnOthers: 0,
  heldByAgent: 1,
  ownTask: { id: 'task-1', status: 'waiting', due: '2026-09-30', projectId: 'project-aurora' },
};

export const knownInput: SituationInput = {
  goal: readValue({
    anchor: 'task',
    taskId: 'task-1',
    project: readValue({ id: 'project-aurora', openTasks: 2, complete: true }),
    serves: readValue([]),
  }),
  attempts: readValue({
    kind: 'task',
    sessions: [
      {
        sessionId: '20260925T090000-a1b2c3d4',
        startedAgo: readValue(day + 2 * hour),
        ownerActs: readValue([
          { act: 'draft_rejected', draftId: 'd-7f3e' },
          {
            act: 'task_reopened',
            closureId: 'close-9c1d',
            by: 'owner',
            reason: 'the totals are for Lakeside, not Northwind',
          },
        ]),
        ended: readValue('turn_ceiling'),
      },
    ],
  }),
  board: readValue(knownBoard),
  conditions: knownConditions,
  time: readValue({
    weekday: 'Friday',
    partOfDay: 'afternoon',
    quietHours: readValue('outside'),
  }),
  seats: readValue({ total: 3, heldBy: ['task-1', 'task-elsewhere'] }),
  runs: readValue({ delegatedTasks: ['task-elsewhere'], triggers: [] }),
  slots: readValue({ kind: 'local', total: 2, busy: 1 }),
  voice: readValue({ inCall: true }),
  budget: readValue({
    maxTurns: 200,
    outputTokenCeiling: 'none',
    costCeilingUsd: 'none',
    contextWindow: 'none',
    compactionThreshold: 'none',
  }),
};
