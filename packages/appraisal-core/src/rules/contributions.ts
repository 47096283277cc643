import type { SessionEvidence } from '../ports/session-evidence.js';
import {
  type Channel,
  channelSchema,
  type GoalError,
  type GoalRef,
} from '../schemas/goal-error.js';
import type { OwnerOutcomeRecord, ReflectionRecord } from '../schemas/learning.js';
import type { DraftOutcome, DraftStaged, OutboxRecord } from '../schemas/outbox.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { RequestRecord } from '../schemas/requests.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import {
  type ContributionRow,
  type ContributionSource,
  contributionTable,
} from './contribution-table.js';
import { closureRow, completedAfter, draftVerdictRow } from './owner-act-rows.js';
import {
  firstVerdicts,
  isDraftAct,
  isWorkflowAct,
  type RecordedAct,
  recordedActs,
  type WorkflowAct,
} from './owner-acts.js';
import { readTranscript, type TranscriptReading } from './read-transcript.js';
import { chronological } from './record-order.js';
import { errorsOf, type SignedEntry, signEntry } from './signed-entry.js';

/**
 * What one session's records sign, each entry with the id of the row that signed it, the
 * channels whose source could not be read whole, whether the reading is partial and whether a
 * run compacted. {@link Contributions} is the same reading with the entries' errors only.
 */
export interface SignedEntries {
  readonly entries: SignedEntry[];
  readonly incomplete: Channel[];
  readonly partial: boolean;
  readonly compacted: boolean;
}

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
  entries: [],
  compacted: false,
  runs: new Map(),
  goal: undefined,
};

function records<T>(source: SourceRead<T>): readonly T[] {
  return source.state === 'unreadable' ? [] : source.records;
}

function withTask(taskId: string | undefined, fallback: GoalRef | undefined): GoalRef | undefined {
  return taskId === undefined ? fallback : { kind: 'task', id: taskId };
}

function draftContributions(
  evidence: SessionEvidence,
  goal: GoalRef | undefined,
  acts: readonly RecordedAct[],
  errors: SignedEntry[],
): void {
  const outbox = records<OutboxRecord>(evidence.outbox);
  const staged = new Map<string, DraftStaged>();
  const foreign = new Set<string>();
  for (const record of chronological(outbox)) {
    if (record.type !== 'staged') continue;
    if (record.session_id !== evidence.sessionId) foreign.add(record.draft_id);
    else if (!staged.has(record.draft_id)) staged.set(record.draft_id, record);
  }
  // Whether the draft reached its recipient unchanged, whoever sent it (a run's shell too).
  const outcomes = firstVerdicts(outbox);
  const verdicts = new Map<string, DraftOutcome>();
  for (const act of acts.filter(isDraftAct)) if (act.deciding) verdicts.set(act.id, act.record);
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
        signEntry(
          'ownerOutcomeNegative',
          { kind: 'outcome', outcome_id: linked.outcome_id },
          draftGoal,
          reachedUnchanged,
        ),
      );
      continue;
    }
    const row = draftVerdictRow(verdicts.get(draftId));
    if (row !== undefined) {
      errors.push(signEntry(row, { kind: 'draft', draft_id: draftId }, draftGoal));
    }
  }
}

function questionContributions(
  evidence: SessionEvidence,
  transcript: TranscriptReading,
  acts: readonly RecordedAct[],
  errors: SignedEntry[],
): void {
  const questions = records<QuestionRecord>(evidence.questions);
  const parked = new Map<string, GoalRef | undefined>();
  for (const record of chronological(questions)) {
    if (record.type !== 'parked') continue;
    if (record.session_id === evidence.sessionId && !parked.has(record.question_id)) {
      parked.set(record.question_id, record.goal ?? transcript.goal);
    }
  }
  const settled = new Map<string, RecordedAct>();
  for (const act of acts) {
    if (act.act === 'question_answered' || act.act === 'question_abandoned')
      settled.set(act.id, act);
  }
  for (const [questionId, goal] of parked) {
    const settlement = settled.get(questionId);
    const cite = { kind: 'question', question_id: questionId } as const;
    if (settlement?.act === 'question_abandoned') {
      errors.push(signEntry('questionAbandoned', cite, goal));
    } else if (settlement?.act === 'question_answered') {
      const finished =
        evidence.transcript.state === 'unreadable'
          ? undefined
          : completedAfter(evidence.transcript.records, Date.parse(settlement.at), true);
      if (finished !== undefined) {
        errors.push(signEntry('questionAnsweredCompleted', cite, goal));
      }
    }
  }
}

function requestContributions(evidence: SessionEvidence, errors: SignedEntry[]): void {
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
      signEntry(
        'requestClosedWithoutDraft',
        { kind: 'request', request_id: requestId },
        { kind: 'request', id: requestId },
      ),
    );
  }
}

function closureContributions(
  sessionId: string,
  acts: readonly RecordedAct[],
  errors: SignedEntry[],
): void {
  // Each closing naming this session that no reopen withdrew, then the reopens after done.
  const standing: SignedEntry[] = [];
  const reopens: SignedEntry[] = [];
  for (const act of acts) {
    const cite = { kind: 'closure', closure_id: act.id } as const;
    if (act.act === 'task_reopened') {
      if (act.from === 'done' && act.session_ids.includes(sessionId)) {
        const goal: GoalRef = { kind: 'task', id: act.record.task_id };
        reopens.push(signEntry('taskReopenedAfterDone', cite, goal));
      }
    } else if (act.act === 'task_closed' || act.act === 'task_dropped') {
      const row = closureRow(act.record);
      if (row === undefined || act.withdrawn_by !== undefined) continue;
      if (!act.session_ids.includes(sessionId)) continue;
      standing.push(signEntry(row, cite, { kind: 'task', id: act.record.task_id }));
    }
  }
  errors.push(...standing, ...reopens);
}

function workflowContributions(
  evidence: SessionEvidence,
  goal: GoalRef | undefined,
  acts: readonly RecordedAct[],
  errors: SignedEntry[],
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
  const byRecord = new Map<WorkflowRecord, WorkflowAct>();
  for (const act of acts.filter(isWorkflowAct)) byRecord.set(act.record, act);
  // Each tracked workflow's standing close or cancel (none once a reopen took it back).
  const state = new Map<string, SignedEntry | undefined>();
  const permanent: SignedEntry[] = [];
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
          signEntry('workflowArtifactCheckFailed', cite, tracked.get(workflowId) ?? goal),
        );
      }
      continue;
    }
    const act = byRecord.get(record);
    if (!tracked.has(workflowId) || act === undefined || !act.effective) continue;
    const workflowGoal = tracked.get(workflowId);
    if (act.act === 'workflow_reopened') {
      // Reopening takes the close or the cancel back; only a reopened close signs.
      if (act.reopened_from === 'closed') {
        permanent.push(signEntry('workflowReopenedAfterClose', cite, workflowGoal));
      }
      state.set(workflowId, undefined);
    } else {
      const row = act.act === 'workflow_closed' ? 'workflowClosed' : 'workflowCancelled';
      state.set(
        workflowId,
        act.withdrawn_by === undefined ? signEntry(row, cite, workflowGoal) : undefined,
      );
    }
  }
  for (const entry of state.values()) if (entry !== undefined) errors.push(entry);
  errors.push(...permanent);
}

function reflectionContributions(
  evidence: SessionEvidence,
  transcript: TranscriptReading,
  errors: SignedEntry[],
): void {
  const signedTurns = new Set<number>();
  for (const { error } of transcript.entries) {
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
      signEntry(
        'reflectorCorrection',
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
 * Signs one session's recorded outcomes as entries, each carrying the id of the
 * {@link contributionTable} row that signed it.
 */
export function signedEntries(evidence: SessionEvidence): SignedEntries {
  const transcript =
    evidence.transcript.state === 'unreadable'
      ? emptyTranscript
      : readTranscript(evidence.transcript.records);
  const entries: SignedEntry[] = [...transcript.entries];
  const acts = recordedActs({
    outbox: records(evidence.outbox),
    closures: records(evidence.closures),
    workflows: records(evidence.workflows),
    questions: records(evidence.questions),
  });
  draftContributions(evidence, transcript.goal, acts, entries);
  questionContributions(evidence, transcript, acts, entries);
  requestContributions(evidence, entries);
  closureContributions(evidence.sessionId, acts, entries);
  workflowContributions(evidence, transcript.goal, acts, entries);
  reflectionContributions(evidence, transcript, entries);

  const missing = new Set<Channel>();
  for (const source of Object.values(sources)) {
    if (evidence[source].state === 'read') continue;
    for (const channel of channelsBySource.get(source) ?? []) {
      missing.add(channel);
    }
  }
  const incomplete = channelSchema.options.filter((channel) => missing.has(channel));
  return {
    entries,
    incomplete,
    partial: incomplete.length > 0 || transcript.compacted,
    compacted: transcript.compacted,
  };
}

/**
 * Signs one session's recorded outcomes, every constant read from {@link contributionTable}:
 * the errors of {@link signedEntries}. A source that could not be read whole never reads as
 * zero: its channels are listed in `incomplete` and the reading is `partial`.
 */
export function contributions(evidence: SessionEvidence): Contributions {
  const { entries, ...rest } = signedEntries(evidence);
  return { errors: errorsOf(entries), ...rest };
}
