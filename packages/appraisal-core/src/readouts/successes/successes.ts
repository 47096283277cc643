import type { AppraisalPorts, SessionListing } from '../../ports/appraisal-ports.js';
import { recordsOrNone } from '../../ports/store-index.js';
import { type TranscriptReader, transcriptCache } from '../../ports/transcript-cache.js';
import * as rule from '../../rules/owner-act-rows.js';
import { type RecordedAct, recordedActs } from '../../rules/owner-acts.js';
import type { ClosureRecord } from '../../schemas/closures.js';
import type { GoalRef } from '../../schemas/goal-error.js';
import type { OutboxRecord } from '../../schemas/outbox.js';
import type { QuestionRecord } from '../../schemas/questions.js';
import type { SourceRead } from '../../schemas/source-read.js';
import type { WorkflowRecord } from '../../schemas/workflows.js';
import { type LendsNoneReason, lendExample, type PlanningExample } from './planning-examples.js';
import {
  type Success,
  type SuccessCite,
  type SuccessKind,
  type SuccessStatus,
  successKinds,
  successRows,
} from './success.js';
import { type WritingExemplar, writingExemplars } from './writing-exemplars.js';

/** The stores a success is read from. */
export type SuccessSource = 'sessions' | 'outbox' | 'closures' | 'workflows' | 'questions';

/** Everything `successes` reports: the list, its counts, the exemplars and the examples. */
export interface SuccessesReadout {
  /** Newest first. */
  readonly successes: readonly Success[];
  /** Counted successes; `null` when the session store could not be listed. */
  readonly standing: number | null;
  /** Standing successes by kind; a kind is `null` when its store could not be read. */
  readonly by_kind: Readonly<Record<SuccessKind, number | null>>;
  readonly withdrawn: number | null;
  readonly unknown: number | null;
  /** Successes in development sessions, hidden from the set. */
  readonly hidden: number | null;
  /** Some source was not read whole; the counts may be short. */
  readonly partial: boolean;
  /** The sources that were not read whole. */
  readonly unreadable: readonly SuccessSource[];
  /** Each standing draft the owner sent unchanged; `null` when the outbox could not be read. */
  readonly exemplars: readonly WritingExemplar[] | null;
  /** The examples standing successes lend (empty unless examples were asked for). */
  readonly examples: readonly PlanningExample[];
  /** Why each other success lends none (empty unless examples were asked for). */
  readonly lends_none: readonly { readonly cite: SuccessCite; readonly reason: LendsNoneReason }[];
}

/** The sources `collectSuccesses` reads, each as read once by the caller. */
export interface SuccessSources {
  readonly listing: SourceRead<SessionListing>;
  readonly outbox: SourceRead<OutboxRecord>;
  readonly closures: SourceRead<ClosureRecord>;
  readonly workflows: SourceRead<WorkflowRecord>;
  readonly questions: SourceRead<QuestionRecord>;
}

/** Options of {@link successes}. */
export interface SuccessesOptions {
  /** Count development (`test`) sessions too; experiment sessions stay hidden. */
  readonly includeTests?: boolean;
  /** Work out the planning examples (reads the transcripts of successes toward a goal). */
  readonly examples?: boolean;
}

// Each rule below reads the owner's acts as derived once (owner-acts.ts) and asks the
// contribution rules which row an act signs (owner-act-rows.ts): a success is exactly an act
// whose row is one of the positive rows in `successRows`.
function draftSuccesses(acts: readonly RecordedAct[]): Omit<Success, 'status'>[] {
  const found: Omit<Success, 'status'>[] = [];
  // The draft's first verdict decides; only the owner's own send is a success (a run's shell,
  // or no record of who, is none).
  for (const act of acts) {
    if (act.act !== 'draft_sent_unchanged' || !act.deciding) continue;
    if (rule.draftVerdictRow(act.record) !== successRows.draft_sent_unchanged) continue;
    found.push({
      kind: 'draft_sent_unchanged',
      session_id: act.staged?.session_id ?? null,
      at: act.at,
      cite: { kind: 'draft', id: act.id },
      ...(act.staged === undefined ? { unknown_reason: 'draft_unstaged' as const } : {}),
    });
  }
  return found;
}

function taskSuccesses(acts: readonly RecordedAct[]): Omit<Success, 'status'>[] {
  const found: Omit<Success, 'status'>[] = [];
  for (const act of acts) {
    if (act.act !== 'task_closed') continue;
    // A done by someone this version cannot identify signs nothing: listed, never counted.
    const confirmed = rule.closureRow(act.record) === successRows.task_closed_done;
    const reopen = act.withdrawn_by;
    for (const sessionId of new Set(act.session_ids)) {
      found.push({
        kind: 'task_closed_done',
        session_id: sessionId,
        at: act.at,
        cite: { kind: 'closure', id: act.id },
        goal: { kind: 'task', id: act.record.task_id },
        ...(reopen === undefined
          ? {}
          : { withdrawn_by: { kind: 'closure' as const, id: reopen.closure_id, at: reopen.at } }),
        ...(confirmed ? {} : { unknown_reason: 'closed_by_unknown' as const }),
      });
    }
  }
  return found;
}

function workflowSuccesses(acts: readonly RecordedAct[]): Omit<Success, 'status'>[] {
  const found: Omit<Success, 'status'>[] = [];
  for (const act of acts) {
    // A close after a passing check, of a workflow that was open, by a run that started it.
    if (act.act !== 'workflow_closed' || !act.effective || !act.checked) continue;
    const started = act.started[0];
    if (started === undefined) continue;
    const reopen = act.withdrawn_by;
    found.push({
      kind: 'workflow_closed_after_check',
      session_id: started.session_id,
      at: act.at,
      cite: { kind: 'workflow', id: act.id },
      ...(started.task_id === undefined ? {} : { goal: { kind: 'task', id: started.task_id } }),
      ...(reopen === undefined
        ? {}
        : { withdrawn_by: { kind: 'workflow' as const, id: act.id, at: reopen.at } }),
    });
  }
  return found;
}

interface AnsweredQuestion {
  readonly questionId: string;
  readonly sessionId: string;
  readonly answeredAt: number;
  readonly goal: GoalRef | undefined;
}

function answeredQuestions(acts: readonly RecordedAct[]): AnsweredQuestion[] {
  const answered: AnsweredQuestion[] = [];
  for (const act of acts) {
    if (act.act !== 'question_answered' || act.parked === undefined) continue;
    answered.push({
      questionId: act.id,
      sessionId: act.parked.session_id,
      answeredAt: Date.parse(act.at),
      goal: act.parked.goal,
    });
  }
  return answered;
}

function statusOf(
  success: Omit<Success, 'status'>,
  listed: SessionListing | undefined,
  includeTests: boolean,
): Success {
  let unknown = success.unknown_reason;
  if (unknown === undefined && success.session_id !== null) {
    if (listed === undefined) unknown = 'session_gone';
    else if (listed.kind === undefined) unknown = 'session_kind_unknown';
  }
  if (unknown !== undefined) return { ...success, status: 'unknown', unknown_reason: unknown };
  const kind = listed?.kind;
  if (kind === 'experiment' || (kind === 'test' && !includeTests)) {
    return { ...success, status: 'hidden' };
  }
  return { ...success, status: success.withdrawn_by === undefined ? 'standing' : 'withdrawn' };
}

/** The planning examples the successes lend, in order, and why each other one lends none. */
async function lendExamples(
  found: readonly Success[],
  read: TranscriptReader,
): Promise<{
  examples: PlanningExample[];
  lendsNone: { cite: SuccessCite; reason: LendsNoneReason }[];
}> {
  const examples: PlanningExample[] = [];
  const lendsNone: { cite: SuccessCite; reason: LendsNoneReason }[] = [];
  const lent = await Promise.all(
    found.map(async (success): Promise<PlanningExample | LendsNoneReason> => {
      if (success.status !== 'standing') return 'not_standing';
      if (success.goal === undefined || success.session_id === null) return 'not_toward_a_goal';
      const transcript = await read(success.session_id);
      return lendExample(success, success.session_id, success.goal, transcript);
    }),
  );
  lent.forEach((outcome, index) => {
    const success = found[index] as Success;
    if (typeof outcome === 'string') lendsNone.push({ cite: success.cite, reason: outcome });
    else examples.push(outcome);
  });
  return { examples, lendsNone };
}

/**
 * Reads what went right from sources already read once: the owner's sends, task closures,
 * workflow closures after a passing check, and answered questions whose work then finished.
 * `read` fetches the transcripts it needs (answered questions' sessions, and for examples
 * every success toward a goal), each at most once.
 */
export async function collectSuccesses(
  sources: SuccessSources,
  read: TranscriptReader,
  options: SuccessesOptions = {},
): Promise<SuccessesReadout> {
  const includeTests = options.includeTests ?? false;
  const listed = new Map(
    recordsOrNone(sources.listing).map((listing) => [listing.sessionId, listing]),
  );
  const found: Success[] = [];
  const place = (success: Omit<Success, 'status'>) =>
    found.push(
      statusOf(
        success,
        success.session_id === null ? undefined : listed.get(success.session_id),
        includeTests,
      ),
    );

  const acts = recordedActs({
    outbox: recordsOrNone(sources.outbox),
    closures: recordsOrNone(sources.closures),
    workflows: recordsOrNone(sources.workflows),
    questions: recordsOrNone(sources.questions),
  });
  draftSuccesses(acts).forEach(place);
  taskSuccesses(acts).forEach(place);
  workflowSuccesses(acts).forEach(place);
  const answered = answeredQuestions(acts);
  await Promise.all(
    answered.map(async (question) => {
      const cite = { kind: 'question', id: question.questionId } as const;
      const goal = question.goal === undefined ? {} : { goal: question.goal };
      const listing = listed.get(question.sessionId);
      if (listing === undefined || listing.kind === undefined) {
        place({
          kind: 'question_answered_then_finished',
          session_id: question.sessionId,
          at: new Date(question.answeredAt).toISOString(),
          cite,
          ...goal,
        });
        return;
      }
      const transcript = await read(question.sessionId);
      const finished =
        transcript.state === 'unreadable'
          ? 'unreadable'
          : rule.completedAfter(
              transcript.records,
              question.answeredAt,
              transcript.state === 'read',
            );
      if (finished === undefined) return;
      place({
        kind: 'question_answered_then_finished',
        session_id: question.sessionId,
        at: finished === 'unreadable' ? new Date(question.answeredAt).toISOString() : finished,
        cite,
        ...goal,
        ...(finished === 'unreadable' ? { unknown_reason: 'session_unreadable' as const } : {}),
      });
    }),
  );
  // Newest first; ties in a fixed order, so store order never shows.
  const keyed = found.map((success) => ({
    success,
    time: Date.parse(success.at),
    key: `${success.cite.kind}:${success.cite.id}:${success.session_id}`,
  }));
  keyed.sort((a, b) => b.time - a.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  found.splice(0, found.length, ...keyed.map((entry) => entry.success));

  const unreadable = (Object.keys(sources) as (keyof SuccessSources)[])
    .filter((name) => sources[name].state !== 'read')
    .map((name): SuccessSource => (name === 'listing' ? 'sessions' : name));
  const listingRead = sources.listing.state !== 'unreadable';
  const kindSource: Record<SuccessKind, keyof SuccessSources> = {
    draft_sent_unchanged: 'outbox',
    task_closed_done: 'closures',
    workflow_closed_after_check: 'workflows',
    question_answered_then_finished: 'questions',
  };
  const count = (status: SuccessStatus) =>
    listingRead ? found.filter((success) => success.status === status).length : null;
  const byKind = Object.fromEntries(
    successKinds.map((kind) => [
      kind,
      listingRead && sources[kindSource[kind]].state !== 'unreadable'
        ? found.filter((success) => success.kind === kind && success.status === 'standing').length
        : null,
    ]),
  ) as Record<SuccessKind, number | null>;

  const exemplars = writingExemplars(found, sources.outbox);

  const { examples, lendsNone } =
    options.examples === true ? await lendExamples(found, read) : { examples: [], lendsNone: [] };

  return {
    successes: found,
    standing: count('standing'),
    by_kind: byKind,
    withdrawn: count('withdrawn'),
    unknown: count('unknown'),
    hidden: count('hidden'),
    partial: unreadable.length > 0,
    unreadable,
    exemplars,
    examples,
    lends_none: lendsNone,
  };
}

/**
 * What went right, read fresh from the outbox, the closure record, the workflows and the
 * questions: nothing is written to make this list. Development sessions are hidden and counted
 * unless `includeTests`; only the owner's own acts count.
 */
export async function successes(
  ports: AppraisalPorts,
  options: SuccessesOptions = {},
): Promise<SuccessesReadout> {
  const [listing, outbox, closures, workflows, questions] = await Promise.all([
    ports.sessions.list(),
    ports.outbox.read(),
    ports.closures.read(),
    ports.workflows.read(),
    ports.questions.read(),
  ]);
  return collectSuccesses(
    { listing, outbox, closures, workflows, questions },
    transcriptCache(ports.sessions),
    { includeTests: options.includeTests ?? false, examples: options.examples ?? true },
  );
}
