import {
  closureRow,
  completedAfter,
  draftVerdictRow,
  firstSettlements,
  firstVerdicts,
  isClosing,
} from './owner-act-rows.js';
import type { AppraisalPorts, SessionListing } from './ports.js';
import { chronological, firstPerKey } from './record-order.js';
import type { ClosureRecord } from './schemas/closures.js';
import type { GoalRef } from './schemas/goal-error.js';
import type { DraftStaged, OutboxRecord } from './schemas/outbox.js';
import type { Taint } from './schemas/primitives.js';
import type { QuestionRecord } from './schemas/questions.js';
import type { SourceRead } from './schemas/source-read.js';
import type { TranscriptEvent } from './schemas/transcript.js';
import type { WorkflowRecord } from './schemas/workflows.js';
import type { SignedRowId } from './signed-entry.js';
import { recordsOrNone } from './store-index.js';
import { type TranscriptReader, transcriptCache } from './transcript-cache.js';

/** The four acts of the owner's that make something a success. */
export const successKinds = [
  'draft_sent_unchanged',
  'task_closed_done',
  'workflow_closed_after_check',
  'question_answered_then_finished',
] as const;
/** One of {@link successKinds}. */
export type SuccessKind = (typeof successKinds)[number];

/**
 * The contribution-table row whose positive entry each kind of success is. A workflow close
 * is a success only after a passing check; the others are every entry their row signs.
 */
export const successRows = {
  draft_sent_unchanged: 'draftSentUnchanged',
  task_closed_done: 'taskClosedDone',
  workflow_closed_after_check: 'workflowClosed',
  question_answered_then_finished: 'questionAnsweredCompleted',
} as const satisfies Record<SuccessKind, SignedRowId>;

/**
 * Where a success stands: counted; `withdrawn` by a later reopen; `unknown` when it cannot be
 * confirmed (never counted); `hidden` in a development session (counted as hidden).
 */
export type SuccessStatus = 'standing' | 'withdrawn' | 'unknown' | 'hidden';

/** Why a success could not be confirmed. */
export type SuccessUnknownReason =
  | 'closed_by_unknown'
  | 'session_gone'
  | 'session_kind_unknown'
  | 'session_unreadable'
  | 'draft_unstaged';

/** The record a success or its withdrawal rests on. */
export interface SuccessCite {
  readonly kind: 'draft' | 'closure' | 'workflow' | 'question';
  readonly id: string;
}

/** One thing that went right, as the owner's own act says, with where it stands now. */
export interface Success {
  readonly kind: SuccessKind;
  readonly status: SuccessStatus;
  /** The session the success is credited to; `null` for a sent draft with no staging record. */
  readonly session_id: string | null;
  /** When the act happened (for a question, when the resumed work finished). */
  readonly at: string;
  readonly cite: SuccessCite;
  /** The goal it was toward, when it was toward one: a task, or a question's goal. */
  readonly goal?: GoalRef;
  /** The reopen that took it back, listed beside it. */
  readonly withdrawn_by?: SuccessCite & { readonly at: string };
  readonly unknown_reason?: SuccessUnknownReason;
}

/** A draft the owner sent as mecha wrote it: a writing exemplar. No run is shown it yet. */
export interface WritingExemplar {
  readonly draft_id: string;
  readonly session_id: string;
  readonly at: string;
  /** The tool that would send it. */
  readonly tool: string;
  /** Whether third-party text was in the conversation when it was written. */
  readonly taint: Taint;
  /** The draft, word for word; `null` when the staging record kept no text. */
  readonly text: string | null;
  readonly served: false;
}

/** Why a success lends no planning example. */
export type LendsNoneReason =
  | 'not_standing'
  | 'not_toward_a_goal'
  | 'read_third_party'
  | 'taint_unknown'
  | 'situation_unrecorded'
  | 'no_tool_calls';

/** A planning example: the order of tools a successful session called, names only. */
export interface PlanningExample {
  readonly cite: SuccessCite;
  readonly kind: SuccessKind;
  readonly session_id: string;
  readonly at: string;
  readonly goal: GoalRef;
  /** Every workspace and surface its runs recorded; a later run must match them all. */
  readonly situations: readonly { readonly workspace: string; readonly surface: string }[];
  /** Every tool its runs had or called; a later run must have each of them. */
  readonly tools: readonly string[];
  /** The call trace, such as `fs_read → shell ×2 → fs_write`: a trace, not a plan. */
  readonly trace: string;
}

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

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function byTime<T extends { readonly at: string }>(a: T, b: T): number {
  return Date.parse(a.at) - Date.parse(b.at);
}

// Each rule below asks the contribution rules which row a record signs (owner-act-rows.ts) and
// reads records in the one order they use (record-order.ts): a success is exactly an act whose
// row is one of the positive rows in `successRows`.
function draftSuccesses(outbox: SourceRead<OutboxRecord>): Omit<Success, 'status'>[] {
  const records = recordsOrNone(outbox);
  const staged = new Map<string, DraftStaged>();
  for (const record of records) if (record.type === 'staged') staged.set(record.draft_id, record);
  const found: Omit<Success, 'status'>[] = [];
  // The draft's first verdict decides; only the owner's own send is a success, so the set
  // starts from the first stamped send (a run's shell, or no record of who, is none).
  for (const [draftId, verdict] of firstVerdicts(records)) {
    if (draftVerdictRow(verdict) !== successRows.draft_sent_unchanged) continue;
    const draft = staged.get(draftId);
    found.push({
      kind: 'draft_sent_unchanged',
      session_id: draft?.session_id ?? null,
      at: verdict.at,
      cite: { kind: 'draft', id: draftId },
      ...(draft === undefined ? { unknown_reason: 'draft_unstaged' as const } : {}),
    });
  }
  return found;
}

function taskSuccesses(closures: SourceRead<ClosureRecord>): Omit<Success, 'status'>[] {
  const records = recordsOrNone(closures);
  // A closure's withdrawal: the first reopen that names it.
  const reopens = firstPerKey(records, (record) => record.reopens);
  const found: Omit<Success, 'status'>[] = [];
  for (const record of records) {
    if (!isClosing(record) || record.to !== 'done') continue;
    // A done by someone this version cannot identify signs nothing: listed, never counted.
    const confirmed = closureRow(record) === successRows.task_closed_done;
    const reopen = reopens.get(record.closure_id);
    for (const sessionId of new Set(record.session_ids)) {
      found.push({
        kind: 'task_closed_done',
        session_id: sessionId,
        at: record.at,
        cite: { kind: 'closure', id: record.closure_id },
        goal: { kind: 'task', id: record.task_id },
        ...(reopen === undefined
          ? {}
          : { withdrawn_by: { kind: 'closure' as const, id: reopen.closure_id, at: reopen.at } }),
        ...(confirmed ? {} : { unknown_reason: 'closed_by_unknown' as const }),
      });
    }
  }
  return found;
}

function workflowSuccesses(workflows: SourceRead<WorkflowRecord>): Omit<Success, 'status'>[] {
  const events = new Map<string, WorkflowRecord[]>();
  for (const record of recordsOrNone(workflows)) {
    push(events, record.workflow_id, record);
  }
  const found: Omit<Success, 'status'>[] = [];
  for (const [workflowId, list] of events) {
    const ordered = chronological(list);
    const started = ordered.find((record) => record.type === 'started');
    if (started?.type !== 'started') continue;
    let checkPassed = false;
    ordered.forEach((record, index) => {
      if (record.type === 'verified') checkPassed = record.passed;
      if (record.type !== 'closed' || !checkPassed) return;
      const reopen = ordered.slice(index + 1).find((later) => later.type === 'reopened');
      found.push({
        kind: 'workflow_closed_after_check',
        session_id: started.session_id,
        at: record.at,
        cite: { kind: 'workflow', id: workflowId },
        ...(started.task_id === undefined ? {} : { goal: { kind: 'task', id: started.task_id } }),
        ...(reopen === undefined
          ? {}
          : { withdrawn_by: { kind: 'workflow' as const, id: workflowId, at: reopen.at } }),
      });
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

function answeredQuestions(questions: SourceRead<QuestionRecord>): AnsweredQuestion[] {
  const records = recordsOrNone(questions);
  const parked = new Map<string, QuestionRecord & { type: 'parked' }>();
  for (const record of records)
    if (record.type === 'parked') parked.set(record.question_id, record);
  const ends = firstSettlements(records);
  const answered: AnsweredQuestion[] = [];
  for (const [questionId, question] of parked) {
    const end = ends.get(questionId);
    if (end?.type !== 'answered') continue;
    answered.push({
      questionId,
      sessionId: question.session_id,
      answeredAt: Date.parse(end.at),
      goal: question.goal,
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

const arrow = ' \u2192 ';

/** Writes a call trace with repeats folded: `fs_read → shell ×2 → fs_write`. */
export function formatCallTrace(tools: readonly string[]): string {
  const steps: { tool: string; count: number }[] = [];
  for (const tool of tools) {
    const last = steps[steps.length - 1];
    if (last?.tool === tool) last.count += 1;
    else steps.push({ tool, count: 1 });
  }
  return steps
    .map((step) => (step.count === 1 ? step.tool : `${step.tool} \u00d7${step.count}`))
    .join(arrow);
}

function lend(
  success: Success,
  sessionId: string,
  goal: GoalRef,
  transcript: SourceRead<TranscriptEvent>,
): PlanningExample | LendsNoneReason {
  if (transcript.state !== 'read') return 'taint_unknown';
  const calls: string[] = [];
  const tools = new Set<string>();
  const situations = new Map<string, { workspace: string; surface: string }>();
  let unrecorded = false;
  let unknownTaint = false;
  for (const event of transcript.records) {
    if (event.type === 'run_start') {
      if (event.workspace === undefined) unrecorded = true;
      else {
        situations.set(`${event.workspace}\u0000${event.surface}`, {
          workspace: event.workspace,
          surface: event.surface,
        });
      }
      for (const tool of event.tools ?? []) tools.add(tool);
    } else if (event.type === 'message' || event.type === 'tool_result') {
      if (
        event.taint === 'third_party' ||
        (event.type === 'message' && event.role === 'third_party')
      ) {
        return 'read_third_party';
      }
      if (event.taint === 'unknown') unknownTaint = true;
    } else if (event.type === 'tool_call') {
      calls.push(event.tool);
      tools.add(event.tool);
    }
  }
  if (unknownTaint) return 'taint_unknown';
  if (unrecorded || situations.size === 0) return 'situation_unrecorded';
  if (calls.length === 0) return 'no_tool_calls';
  return {
    cite: success.cite,
    kind: success.kind,
    session_id: sessionId,
    at: success.at,
    goal,
    situations: [...situations.values()],
    tools: [...tools].sort(),
    trace: formatCallTrace(calls),
  };
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

  draftSuccesses(sources.outbox).forEach(place);
  taskSuccesses(sources.closures).forEach(place);
  workflowSuccesses(sources.workflows).forEach(place);
  const answered = answeredQuestions(sources.questions);
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
          : completedAfter(transcript.records, question.answeredAt, transcript.state === 'read');
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

  const staged = new Map<string, DraftStaged>();
  for (const record of recordsOrNone(sources.outbox)) {
    if (record.type === 'staged') staged.set(record.draft_id, record);
  }
  const exemplars =
    sources.outbox.state === 'unreadable'
      ? null
      : found.flatMap((success): WritingExemplar[] => {
          const draft = staged.get(success.cite.id);
          if (success.kind !== 'draft_sent_unchanged' || success.status !== 'standing' || !draft) {
            return [];
          }
          return [
            {
              draft_id: draft.draft_id,
              session_id: draft.session_id,
              at: success.at,
              tool: draft.tool,
              taint: draft.taint,
              text: draft.text ?? null,
              served: false,
            },
          ];
        });

  const examples: PlanningExample[] = [];
  const lendsNone: { cite: SuccessCite; reason: LendsNoneReason }[] = [];
  if (options.examples === true) {
    const lent = await Promise.all(
      found.map(async (success): Promise<PlanningExample | LendsNoneReason> => {
        if (success.status !== 'standing') return 'not_standing';
        if (success.goal === undefined || success.session_id === null) return 'not_toward_a_goal';
        const transcript = await read(success.session_id);
        return lend(success, success.session_id, success.goal, transcript);
      }),
    );
    lent.forEach((outcome, index) => {
      const success = found[index] as Success;
      if (typeof outcome === 'string') lendsNone.push({ cite: success.cite, reason: outcome });
      else examples.push(outcome);
    });
  }

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

/** The run a planning example would be served to: where it runs, toward what, with what. */
export interface PlanningSituation {
  readonly workspace: string;
  readonly surface: string;
  readonly goal: GoalRef;
  readonly tools: readonly string[];
  /** When the run began; only successes before it are lent. */
  readonly startedAt: string;
}

function sameGoal(a: GoalRef, b: GoalRef): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/**
 * The examples a later run in the same situation may be shown, newest first: the same
 * workspace and surface as every run of the success, the same goal, every tool it had, and a
 * success from before the run began.
 */
export function examplesFor(
  examples: readonly PlanningExample[],
  situation: PlanningSituation,
): PlanningExample[] {
  const has = new Set(situation.tools);
  const begun = Date.parse(situation.startedAt);
  return examples
    .filter(
      (example) =>
        Date.parse(example.at) < begun &&
        sameGoal(example.goal, situation.goal) &&
        example.situations.every(
          (where) => where.workspace === situation.workspace && where.surface === situation.surface,
        ) &&
        example.tools.every((tool) => has.has(tool)),
    )
    .sort((a, b) => byTime(b, a));
}
