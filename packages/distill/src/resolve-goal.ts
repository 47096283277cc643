import type { BoardRecord, GoalRef, RequestRecord, SourceRead } from '@mecha/appraisal-core';
import type { CharterLine } from '@mecha/charter';

/**
 * The goals mecha holds, by kind: charter line ids, board tasks and projects, and front-door
 * requests. A store that could not be read holds nothing here, so nothing in it resolves.
 * There is no trigger store yet, so a trigger never resolves.
 */
export interface GoalDirectory {
  readonly charter: ReadonlySet<string>;
  readonly task: ReadonlySet<string>;
  readonly project: ReadonlySet<string>;
  readonly request: ReadonlySet<string>;
}

function recordsOf<T>(read: SourceRead<T>): readonly T[] {
  return read.state === 'unreadable' ? [] : read.records;
}

/** Builds the directory from the charter, the board and the request store as read. */
export function goalDirectory(
  charter: SourceRead<CharterLine>,
  board: SourceRead<BoardRecord>,
  requests: SourceRead<RequestRecord>,
): GoalDirectory {
  const task = new Set<string>();
  const project = new Set<string>();
  for (const row of recordsOf(board)) (row.kind === 'task' ? task : project).add(row.id);
  return {
    charter: new Set(recordsOf(charter).map((line) => line.id)),
    task,
    project,
    request: new Set(recordsOf(requests).map((record) => record.request_id)),
  };
}

/** The goal as a full pointer when mecha holds it; `undefined` when it does not resolve. */
export function resolveGoal(goal: GoalRef, directory: GoalDirectory): GoalRef | undefined {
  if (goal.id === undefined || goal.kind === 'trigger') return undefined;
  return directory[goal.kind].has(goal.id) ? { kind: goal.kind, id: goal.id } : undefined;
}

/**
 * What crosses into episode metadata for a goal: `kind:id` when the id resolves against the
 * charter, the board or the request store, and the kind word alone when it does not.
 */
export function goalPointer(goal: GoalRef, directory: GoalDirectory): string {
  const resolved = resolveGoal(goal, directory);
  return resolved === undefined ? goal.kind : `${resolved.kind}:${resolved.id}`;
}
