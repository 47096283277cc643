import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { goalDirectory, goalPointer, resolveGoal } from './resolve-goal.js';

const directory = goalDirectory(
  { state: 'read', records: [{ id: 'replies', text: 'Reply to people waiting on me' }] },
  {
    state: 'read',
    records: [
      { v: 1, kind: 'task', id: 'task-1', title: 'the totals', status: 'next' },
      { v: 1, kind: 'project', id: 'proj-1', title: 'Lakeside' },
    ],
  },
  {
    state: 'read',
    records: [{ v: 1, type: 'received', at: '2026-09-25T09:00:00Z', request_id: 'req-1' }],
  },
);

describe('goalPointer', () => {
  it('gives kind:id for a charter line, task, project or request mecha holds', () => {
    expect(goalPointer({ kind: 'charter', id: 'replies' }, directory)).toBe('charter:replies');
    expect(goalPointer({ kind: 'task', id: 'task-1' }, directory)).toBe('task:task-1');
    expect(goalPointer({ kind: 'project', id: 'proj-1' }, directory)).toBe('project:proj-1');
    expect(goalPointer({ kind: 'request', id: 'req-1' }, directory)).toBe('request:req-1');
  });

  it('reduces a goal that does not resolve to its kind word', () => {
    expect(goalPointer({ kind: 'charter', id: 'invented' }, directory)).toBe('charter');
    expect(goalPointer({ kind: 'task', id: 'proj-1' }, directory)).toBe('task');
    expect(goalPointer({ kind: 'trigger', id: 'trig-1' }, directory)).toBe('trigger');
    expect(goalPointer({ kind: 'task' }, directory)).toBe('task');
  });

  it('resolves nothing from a store that could not be read', () => {
    const blind = goalDirectory(
      { state: 'unreadable', reason: 'x' },
      { state: 'unreadable', reason: 'x' },
      { state: 'unreadable', reason: 'x' },
    );
    expect(resolveGoal({ kind: 'charter', id: 'replies' }, blind)).toBeUndefined();
  });

  it('never lets an id cross that the directory does not hold', () => {
    const kinds = fc.constantFrom(
      'charter' as const,
      'task' as const,
      'project' as const,
      'trigger' as const,
      'request' as const,
    );
    fc.assert(
      fc.property(
        kinds,
        fc.option(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { nil: undefined }),
        (kind, id) => {
          const pointer = goalPointer(id === undefined ? { kind } : { kind, id }, directory);
          if (pointer === kind) return;
          expect(pointer).toBe(`${kind}:${id}`);
          expect(kind !== 'trigger' && id !== undefined && directory[kind].has(id)).toBe(true);
        },
      ),
    );
  });
});
