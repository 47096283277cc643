import type { AppraiserCore } from './appraiser-core.js';
import { AppraiserInputError } from './appraiser-error.js';
import type {
  QueueRow,
  QueueState,
  RetainResult,
  RetainSourceInput,
  RetryItem,
  SourceRow,
} from './appraiser-types.js';
import { flagSet } from './controls.js';
import { isWellFormed } from './json-text.js';
import { currentProcessor } from './processor.js';
import { queueSql, taskCueSql } from './sql.js';

// The queue: sources retained, one queue object per admitted source, and its versions
// (pending, complete, refused, interrupted), each a row of its own.

export function queueState(core: AppraiserCore, queueId: number): QueueState | undefined {
  const row = core.db.prepare(queueSql.state).get(queueId) as { state: QueueState } | undefined;
  return row?.state;
}

/** Adds the next version of a queue object; callers run it inside their transaction. */
export function addQueueVersion(
  core: AppraiserCore,
  queueId: number,
  state: QueueState,
  reason?: string,
): void {
  const last = core.db.prepare(queueSql.lastVersion).get(queueId) as { v: number | null };
  core.db
    .prepare(queueSql.insertVersion)
    .run(queueId, (last.v ?? 0) + 1, state, reason ?? null, core.now());
}

export const sourceRow = (core: AppraiserCore, id: number) =>
  core.db.prepare(queueSql.source).get(id) as SourceRow | undefined;

export const queueRow = (core: AppraiserCore, id: number) =>
  core.db.prepare(queueSql.queue).get(id) as QueueRow | undefined;

/** The pending queue objects of the current processor, oldest first, at most `limit`. */
export function pendingQueue(core: AppraiserCore, limit: number): QueueRow[] {
  return core.db.prepare(queueSql.pending).all(currentProcessor, limit) as QueueRow[];
}

function currentDescriptor(core: AppraiserCore, taskId: string | null): string | undefined {
  if (taskId === null) return undefined;
  const row = core.db.prepare(taskCueSql.current).get(taskId) as { descriptor: string } | undefined;
  return row?.descriptor;
}

/** Records (or replaces) a task's authored descriptor. */
export function describeTask(core: AppraiserCore, taskId: string, descriptor: string): void {
  if (taskId.trim() === '' || descriptor.trim() === '') {
    throw new AppraiserInputError('A task descriptor needs a task id and non-empty text.');
  }
  const { db } = core;
  db.transaction(() => {
    const last = db.prepare(taskCueSql.lastVersion).get(taskId) as { v: number | null };
    db.prepare(taskCueSql.retire).run(taskId);
    db.prepare(taskCueSql.insert).run(taskId, (last.v ?? 0) + 1, descriptor, core.now());
  }).immediate();
}

function checkInput(input: RetainSourceInput): void {
  for (const field of ['text', 'owner', 'scope'] as const) {
    const value = input[field];
    if (typeof value !== 'string' || value.trim() === '') {
      throw new AppraiserInputError(`A report needs a non-empty ${field}.`);
    }
  }
  if (!isWellFormed(input.text)) {
    throw new AppraiserInputError(
      'The report is not well-formed text (it holds a lone surrogate); nothing was retained.',
    );
  }
  if (input.subject !== undefined && input.subject.trim() === '') {
    throw new AppraiserInputError('A subject, when given, must not be empty.');
  }
}

/**
 * Retains a report and, with writes on and a subject, queues it in the same write. Pending
 * controls are applied first (`applyPending`): intake is a quiet boundary.
 */
export function retainSource(
  core: AppraiserCore,
  applyPending: () => unknown,
  input: RetainSourceInput,
): RetainResult {
  checkInput(input);
  applyPending();
  const { db, settings } = core;
  return db
    .transaction((): RetainResult => {
      const sourceId = db
        .prepare(queueSql.insertSource)
        .run(
          input.text,
          input.owner,
          input.scope,
          input.subject ?? null,
          input.task ?? null,
          core.now(),
        ).lastInsertRowid as number;
      if (input.subject === undefined) return { sourceId, queueId: null, reason: 'no_subject' };
      if (settings.imported()) return { sourceId, queueId: null, reason: 'imported_configuration' };
      if (!flagSet(settings.flags()).writes)
        return { sourceId, queueId: null, reason: 'writes_off' };
      const queueId = db
        .prepare(queueSql.insertQueue)
        .run(
          sourceId,
          currentProcessor,
          settings.configVersion(),
          currentDescriptor(core, input.task ?? null) ?? null,
          core.now(),
        ).lastInsertRowid as number;
      addQueueVersion(core, queueId, 'pending');
      return { sourceId, queueId };
    })
    .immediate();
}

/** Queues refused and interrupted work again: all of it, or the ids named. */
export function retry(
  core: AppraiserCore,
  applyPending: () => unknown,
  queueIds?: readonly number[],
): readonly RetryItem[] {
  applyPending();
  const ids =
    queueIds ??
    (core.db.prepare(queueSql.retryable).all() as { id: number }[]).map((row) => row.id);
  return ids.map((queueId): RetryItem => {
    const queue = queueRow(core, queueId);
    const state = queue ? queueState(core, queueId) : undefined;
    if (!queue || state === undefined)
      return { queueId, state: 'refused', reason: 'no such queue object' };
    if (queue.processor !== currentProcessor) {
      return {
        queueId,
        state: 'refused',
        reason: `bound to processor ${queue.processor.slice(0, 12)}, not the current one`,
      };
    }
    if (state !== 'refused' && state !== 'interrupted') {
      return {
        queueId,
        state: 'refused',
        reason: `it is ${state}; only refused or interrupted work is retried`,
      };
    }
    core.db
      .transaction(() => addQueueVersion(core, queueId, 'pending', 'explicit retry'))
      .immediate();
    return { queueId, state: 'pending' };
  });
}

/** The queue of the current processor by state, and how many objects belong to another. */
export function queueCounts(core: AppraiserCore): {
  counts: Record<QueueState, number>;
  boundElsewhere: number;
  sources: number;
} {
  const counts = { pending: 0, complete: 0, refused: 0, interrupted: 0 } as Record<
    QueueState,
    number
  >;
  const rows = core.db.prepare(queueSql.countsByState).all(currentProcessor) as {
    state: QueueState;
    n: number;
  }[];
  for (const row of rows) counts[row.state] = row.n;
  const bound = core.db.prepare(queueSql.boundElsewhere).get(currentProcessor) as { n: number };
  const sources = core.db.prepare(queueSql.sourceCount).get() as { n: number };
  return { counts, boundElsewhere: bound.n, sources: sources.n };
}

export function withdrawSource(core: AppraiserCore, sourceId: number): void {
  core.db.prepare(queueSql.withdrawSource).run(sourceId);
}
