import {
  type ContributionRow,
  type ContributionSource,
  contributionTable,
} from './contribution-table.js';
import { readTranscript, type TranscriptReading } from './read-transcript.js';
import type { ClosureRecord } from './schemas/closures.js';
import { type Channel, channelSchema, type GoalError, type GoalRef } from './schemas/goal-error.js';
import type { OwnerOutcomeRecord, ReflectionRecord } from './schemas/learning.js';
import type { DraftOutcome, DraftStaged, OutboxRecord } from './schemas/outbox.js';
import type { QuestionRecord } from './schemas/questions.js';
import type { RequestRecord } from './schemas/requests.js';
import type { SourceRead } from './schemas/source-read.js';
import type { WorkflowRecord } from './schemas/workflows.js';
import type { SessionEvidence } from './session-evidence.js';
import { signedError } from './signed-error.js';

/**
 * What one session's records sign: the errors, the channels whose source could not be read
 * whole, whether the reading is partial (a source not read whole, or a run that compacted) and
 * whether a run compacted (its label then reads neutral).
 */
export interface Contributions {
  readonly errors: GoalError[];
  readonly incomplete: Channel[];
  readonly partial: boolean;
  readonly compacted: boolean;
}

const table = contributionTable;
const rows: readonly ContributionRow[] = Object.values(contributionTable);

/** The channels a source feeds, read off the table: its own rows' and those that also read it. */
const channelsBySource = new Map<ContributionSource, Set<Channel>>();
for (const row of rows) {
  if (row.kind === 'silent') continue;
  for (const source of [row.source, ...row.alsoReads]) {
    const channels = channelsBySource.get(source) ?? new Set<Channel>();
    channels.add(row.channel);
    channelsBySource.set(source, channels);
  }
}

const emptyTranscript: TranscriptReading = {
  errors: [],
  compacted: false,
  runs: new Map(),
  goal: undefined,
};

function records<T>(source: SourceRead<T>): readonly T[] {
  return source.state === 'unreadable' ? [] : source.records;
}

/** Stable chronological order: by timestamp, ties kept in store order. */
function chronological<T extends { readonly at: string }>(list: readonly T[]): T[] {
  return list
    .map((record, index) => ({ record, index, time: Date.parse(record.at) }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map((entry) => entry.record);
}

function withTask(taskId: string | undefined, fallback: GoalRef | undefined): GoalRef | undefined {
  return taskId === undefined ? fallback : { kind: 'task', id: taskId };
}

function draftContributions(
  evidence: SessionEvidence,
  goal: GoalRef | undefined,
  errors: GoalError[],
): void {
  const staged = new Map<string, DraftStaged>();
  const outcomes = new Map<string, DraftOutcome>();
  const foreign = new Set<string>();
  for (const record of chronological(records<OutboxRecord>(evidence.outbox))) {
    if (record.type === 'staged') {
      if (record.session_id !== evidence.sessionId) foreign.add(record.draft_id);
      else if (!staged.has(record.draft_id)) staged.set(record.draft_id, record);
    } else if (!outcomes.has(record.draft_id)) {
      outcomes.set(record.draft_id, record);
    }
  }
  const negativeOutcomes = new Map<string, OwnerOutcomeRecord>();
  for (const record of chronological(records(evidence.ownerOutcomes))) {
    if (record.session_id !== evidence.sessionId || record.kind === 'fine') continue;
    if (!negativeOutcomes.has(record.draft_id)) negativeOutcomes.set(record.draft_id, record);
  }

  // Every draft this session staged, and any outcome the reader scoped to it whose staging
  // line is missing (a partial outbox); drafts another session staged are never counted.
  const draftIds = new Set([...staged.keys(), ...outcomes.keys(), ...negativeOutcomes.keys()]);
  for (const draftId of draftIds) {
    if (foreign.has(draftId) && !staged.has(draftId)) continue;
    const draftGoal = staged.get(draftId)?.goal ?? goal;
    const outcome = outcomes.get(draftId);
    const reachedUnchanged = outcome?.outcome === 'sent_unchanged';
    const linked = negativeOutcomes.get(draftId);
    if (linked !== undefined) {
      // A linked negative owner outcome replaces the draft's own contribution.
      errors.push(
        signedError(
          table.ownerOutcomeNegative,
          { kind: 'outcome', outcome_id: linked.outcome_id },
          draftGoal,
          reachedUnchanged,
        ),
      );
      continue;
    }
    if (outcome === undefined || outcome.sender === 'run_shell') continue;
    const cite = { kind: 'draft', draft_id: draftId } as const;
    if (outcome.outcome === 'sent_unchanged') {
      if (outcome.sender === 'owner') {
        errors.push(signedError(table.draftSentUnchanged, cite, draftGoal));
      }
    } else if (outcome.outcome === 'sent_edited') {
      errors.push(signedError(table.draftSentEdited, cite, draftGoal));
    } else if (outcome.outcome === 'rejected') {
      errors.push(signedError(table.draftRejected, cite, draftGoal));
    }
  }
}

function questionContributions(
  evidence: SessionEvidence,
  transcript: TranscriptReading,
  errors: GoalError[],
): void {
  const parked = new Map<string, GoalRef | undefined>();
  const settled = new Map<string, QuestionRecord>();
  for (const record of chronological(records<QuestionRecord>(evidence.questions))) {
    if (record.type === 'parked') {
      if (record.session_id === evidence.sessionId && !parked.has(record.question_id)) {
        parked.set(record.question_id, record.goal ?? transcript.goal);
      }
    } else if (!settled.has(record.question_id)) {
      settled.set(record.question_id, record);
    }
  }
  for (const [questionId, goal] of parked) {
    const settlement = settled.get(questionId);
    const cite = { kind: 'question', question_id: questionId } as const;
    if (settlement?.type === 'abandoned') {
      errors.push(signedError(table.questionAbandoned, cite, goal));
    } else if (settlement?.type === 'answered') {
      const answeredAt = Date.parse(settlement.at);
      const completed = [...transcript.runs.values()].some(
        (run) => run.startedAt >= answeredAt && run.stopCause === 'completed',
      );
      if (completed) errors.push(signedError(table.questionAnsweredCompleted, cite, goal));
    }
  }
}

function requestContributions(evidence: SessionEvidence, errors: GoalError[]): void {
  const byRequest = new Map<string, RequestRecord[]>();
  for (const record of chronological(records<RequestRecord>(evidence.requests))) {
    const list = byRequest.get(record.request_id) ?? [];
    list.push(record);
    byRequest.set(record.request_id, list);
  }
  for (const [requestId, lifecycle] of byRequest) {
    const triaged = lifecycle.some(
      (record) => record.type === 'triaged' && record.session_id === evidence.sessionId,
    );
    if (!triaged || lifecycle.some((record) => record.type === 'draft_linked')) continue;
    const closedAt = lifecycle.findIndex((record) => record.type === 'closed');
    if (closedAt < 0) continue;
    const before = lifecycle
      .slice(0, closedAt)
      .filter((record) => record.type === 'triaged' || record.type === 'needs_info');
    // Only a close that finds the request triaged signs: not one while it is parked on the
    // requester (needs_info), nor one before it was ever triaged.
    if (before[before.length - 1]?.type !== 'triaged') continue;
    errors.push(
      signedError(
        table.requestClosedWithoutDraft,
        { kind: 'request', request_id: requestId },
        { kind: 'request', id: requestId },
      ),
    );
  }
}

const closedStatuses = new Set(['done', 'dropped']);

function isReopen(record: ClosureRecord): boolean {
  return (
    record.reopens !== undefined ||
    (closedStatuses.has(record.from) && !closedStatuses.has(record.to))
  );
}

function closureContributions(evidence: SessionEvidence, errors: GoalError[]): void {
  const sessionId = evidence.sessionId;
  const closures = new Map<string, ClosureRecord>();
  // The standing entry of each closure naming this session; a reopen withdraws it.
  const standing = new Map<string, GoalError>();
  const reopens: GoalError[] = [];
  const seen = new Set<string>();
  for (const record of chronological(records(evidence.closures))) {
    if (seen.has(record.closure_id)) continue;
    seen.add(record.closure_id);
    const goal: GoalRef = { kind: 'task', id: record.task_id };
    if (isReopen(record)) {
      const target = record.reopens === undefined ? undefined : closures.get(record.reopens);
      if (target !== undefined) standing.delete(target.closure_id);
      const reopenedFrom = target?.to ?? record.from;
      const named = target?.session_ids ?? record.session_ids;
      if (reopenedFrom === 'done' && named.includes(sessionId)) {
        reopens.push(
          signedError(
            table.taskReopenedAfterDone,
            { kind: 'closure', closure_id: record.closure_id },
            goal,
          ),
        );
      }
    } else if (closedStatuses.has(record.to)) {
      closures.set(record.closure_id, record);
      if (!record.session_ids.includes(sessionId)) continue;
      const cite = { kind: 'closure', closure_id: record.closure_id } as const;
      if (record.to === 'dropped') {
        standing.set(record.closure_id, signedError(table.taskClosedDropped, cite, goal));
      } else if (record.who !== 'unknown') {
        standing.set(record.closure_id, signedError(table.taskClosedDone, cite, goal));
      }
    }
  }
  errors.push(...standing.values(), ...reopens);
}

function workflowContributions(
  evidence: SessionEvidence,
  goal: GoalRef | undefined,
  errors: GoalError[],
): void {
  const sessionId = evidence.sessionId;
  const tracked = new Map<string, GoalRef | undefined>();
  const lifecycle = chronological(records<WorkflowRecord>(evidence.workflows));
  for (const record of lifecycle) {
    if (record.type === 'started' && record.session_id === sessionId) {
      if (!tracked.has(record.workflow_id)) {
        tracked.set(record.workflow_id, withTask(record.task_id, goal));
      }
    }
  }
  const state = new Map<string, { status: 'open' | 'closed' | 'cancelled'; entry?: GoalError }>();
  const permanent: GoalError[] = [];
  const failedChecks = new Set<string>();
  for (const record of lifecycle) {
    const workflowId = record.workflow_id;
    const cite = { kind: 'workflow', workflow_id: workflowId } as const;
    if (record.type === 'verified') {
      if (
        record.check === 'artifact' &&
        !record.passed &&
        record.session_id === sessionId &&
        !failedChecks.has(workflowId)
      ) {
        failedChecks.add(workflowId);
        permanent.push(
          signedError(table.workflowArtifactCheckFailed, cite, tracked.get(workflowId) ?? goal),
        );
      }
      continue;
    }
    if (!tracked.has(workflowId) || record.type === 'started') continue;
    const workflowGoal = tracked.get(workflowId);
    const current = state.get(workflowId) ?? { status: 'open' };
    if (record.type === 'closed' && current.status === 'open') {
      state.set(workflowId, {
        status: 'closed',
        entry: signedError(table.workflowClosed, cite, workflowGoal),
      });
    } else if (record.type === 'cancelled' && current.status === 'open') {
      state.set(workflowId, {
        status: 'cancelled',
        entry: signedError(table.workflowCancelled, cite, workflowGoal),
      });
    } else if (record.type === 'reopened' && current.status !== 'open') {
      // Reopening takes the close or the cancel back; only a reopened close signs.
      if (current.status === 'closed') {
        permanent.push(signedError(table.workflowReopenedAfterClose, cite, workflowGoal));
      }
      state.set(workflowId, { status: 'open' });
    }
  }
  for (const { entry } of state.values()) if (entry !== undefined) errors.push(entry);
  errors.push(...permanent);
}

function reflectionContributions(
  evidence: SessionEvidence,
  transcript: TranscriptReading,
  errors: GoalError[],
): void {
  const signedTurns = new Set<number>();
  for (const error of transcript.errors) {
    if (error.channel === 'intervention' && error.cite.kind === 'turn') {
      signedTurns.add(error.cite.turn);
    }
  }
  for (const record of chronological(records<ReflectionRecord>(evidence.reflections))) {
    const turn = record.correction_turn;
    if (!record.clean || turn === undefined || record.session_id !== evidence.sessionId) continue;
    if (signedTurns.has(turn)) continue;
    signedTurns.add(turn);
    errors.push(
      signedError(
        table.reflectorCorrection,
        { kind: 'reflection', reflection_id: record.reflection_id },
        transcript.goal,
      ),
    );
  }
}

// Exhaustive at compile time: a new source must be named here to be checked for readability.
const sources: Record<ContributionSource, ContributionSource> = {
  transcript: 'transcript',
  outbox: 'outbox',
  questions: 'questions',
  requests: 'requests',
  closures: 'closures',
  workflows: 'workflows',
  reflections: 'reflections',
  ownerOutcomes: 'ownerOutcomes',
};

/**
 * Signs one session's recorded outcomes, every constant read from {@link contributionTable}.
 * A source that could not be read whole never reads as zero: its channels are listed in
 * `incomplete` and the reading is `partial`.
 */
export function contributions(evidence: SessionEvidence): Contributions {
  const transcript =
    evidence.transcript.state === 'unreadable'
      ? emptyTranscript
      : readTranscript(evidence.transcript.records);
  const errors: GoalError[] = [...transcript.errors];
  draftContributions(evidence, transcript.goal, errors);
  questionContributions(evidence, transcript, errors);
  requestContributions(evidence, errors);
  closureContributions(evidence, errors);
  workflowContributions(evidence, transcript.goal, errors);
  reflectionContributions(evidence, transcript, errors);

  const missing = new Set<Channel>();
  for (const source of Object.values(sources)) {
    if (evidence[source].state === 'read') continue;
    for (const channel of channelsBySource.get(source) ?? []) {
      missing.add(channel);
    }
  }
  const incomplete = channelSchema.options.filter((channel) => missing.has(channel));
  return {
    errors,
    incomplete,
    partial: incomplete.length > 0 || transcript.compacted,
    compacted: transcript.compacted,
  };
}
