import type { TaskStatus } from '../schemas/board.js';
import type { ClosureRecord } from '../schemas/closures.js';
import type { DraftOutcome, DraftStaged, OutboxRecord } from '../schemas/outbox.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import { chronological, firstPerKey } from './record-order.js';

type Started = WorkflowRecord & { readonly type: 'started' };
type Parked = QuestionRecord & { readonly type: 'parked' };
type Settlement = QuestionRecord & { readonly type: 'answered' | 'abandoned' };

/** A verdict on a draft that the owner (or an actor not recorded) gave, not a run's shell. */
export interface DraftAct {
  readonly act: 'draft_sent_unchanged' | 'draft_sent_edited' | 'draft_rejected' | 'draft_cancelled';
  readonly at: string;
  /** The draft's id. */
  readonly id: string;
  /** The outcome record. */
  readonly record: DraftOutcome;
  /** It is the draft's first verdict, which decides it (a later one changes nothing). */
  readonly deciding: boolean;
  /** The draft's first staging, when the outbox holds it. */
  readonly staged: DraftStaged | undefined;
  /** The session that staged it, when known. */
  readonly session_ids: readonly string[];
  /** The owner gave it; `false` when the outbox does not record who did. */
  readonly sure: boolean;
}

/** A move of a task into done (`task_closed`) or dropped (`task_dropped`). */
export interface TaskClosingAct {
  readonly act: 'task_closed' | 'task_dropped';
  readonly at: string;
  /** The closure's id. */
  readonly id: string;
  readonly record: ClosureRecord;
  /** The sessions that did the task's work. */
  readonly session_ids: readonly string[];
  /** The first later reopen naming this closure, which takes it back. */
  readonly withdrawn_by: ClosureRecord | undefined;
  /** Who closed it is on record (`false` for a version 1 closure). */
  readonly sure: boolean;
}

/** A move of a task out of done or dropped, or a closure record naming the closure it undoes. */
export interface TaskReopenAct {
  readonly act: 'task_reopened';
  readonly at: string;
  /** The reopen's closure id. */
  readonly id: string;
  readonly record: ClosureRecord;
  /** The earlier closure it names and undoes, when that closure is on record before it. */
  readonly undoes: ClosureRecord | undefined;
  /** The status it reopened the task from: the undone closure's, else the record's `from`. */
  readonly from: TaskStatus;
  /** The sessions the undone closure named, else the reopen's own. */
  readonly session_ids: readonly string[];
  readonly sure: boolean;
}

/** A workflow closed, cancelled or reopened by the owner. */
export interface WorkflowAct {
  readonly act: 'workflow_closed' | 'workflow_cancelled' | 'workflow_reopened';
  readonly at: string;
  /** The workflow's id. */
  readonly id: string;
  readonly record: WorkflowRecord;
  /** The workflow's `started` records, oldest first (none when the store lost them). */
  readonly started: readonly Started[];
  /** The sessions that started it. */
  readonly session_ids: readonly string[];
  /**
   * Whether the act changed the workflow's state: a close or a cancel of an open workflow, a
   * reopen of a closed or cancelled one. A repeated close or a reopen of an open one does not.
   */
  readonly effective: boolean;
  /** For an effective reopen: what it took back. */
  readonly reopened_from?: 'closed' | 'cancelled';
  /** For a close: the workflow's last verification before it passed. */
  readonly checked: boolean;
  /** For an effective close or cancel: the reopen that took it back. */
  readonly withdrawn_by: WorkflowRecord | undefined;
  readonly sure: true;
}

/** A parked question's deciding settlement: answered or let go (abandoned). */
export interface QuestionAct {
  readonly act: 'question_answered' | 'question_abandoned';
  readonly at: string;
  /** The question's id. */
  readonly id: string;
  readonly record: Settlement;
  /** The question's first parking, when the store holds it. */
  readonly parked: Parked | undefined;
  readonly session_ids: readonly string[];
  readonly sure: true;
}

/**
 * One act of the owner's on a session's output, read off the stores, with the record it came
 * from. Every reader of the owner's acts (contributions, successes, expectations, the situation
 * brief, the corpus readout) reads these.
 */
export type RecordedAct = DraftAct | TaskClosingAct | TaskReopenAct | WorkflowAct | QuestionAct;

/** The kinds of {@link RecordedAct}. */
export type RecordedActKind = RecordedAct['act'];

/** The stores the owner's acts are read from, each as far as it was read. */
export interface ActSources {
  readonly outbox?: readonly OutboxRecord[];
  readonly closures?: readonly ClosureRecord[];
  readonly workflows?: readonly WorkflowRecord[];
  readonly questions?: readonly QuestionRecord[];
}

/** Each draft's deciding verdict: its first outcome, same-timestamp ties in store order. */
export function firstVerdicts(outbox: readonly OutboxRecord[]): Map<string, DraftOutcome> {
  return firstPerKey(
    outbox.filter((record): record is DraftOutcome => record.type === 'outcome'),
    (record) => record.draft_id,
  );
}

/** Each question's deciding settlement: its first answer or abandonment, ties in store order. */
export function firstSettlements(
  questions: readonly QuestionRecord[],
): Map<string, QuestionRecord> {
  return firstPerKey(
    questions.filter((record) => record.type !== 'parked'),
    (record) => record.question_id,
  );
}

const closedStatuses: ReadonlySet<string> = new Set(['done', 'dropped']);

/** Whether a closure record reopens a task: it names the closure it undoes, or leaves a closed status. */
export function isReopen(record: ClosureRecord): boolean {
  return (
    record.reopens !== undefined ||
    (closedStatuses.has(record.from) && !closedStatuses.has(record.to))
  );
}

/**
 * Whether a closure record closes a task (done or dropped) rather than reopening it. A move
 * from done to dropped closes (a drop), it does not reopen.
 */
export function isClosing(record: ClosureRecord): boolean {
  return !isReopen(record) && closedStatuses.has(record.to);
}

/**
 * Each closure's withdrawal: the first reopen naming it that comes after it in
 * {@link chronological} order. A reopen recorded before the closure it names (a clock that
 * went back) withdraws nothing; a record repeating an earlier closure id is ignored.
 */
export function closureWithdrawals(records: readonly ClosureRecord[]): Map<string, ClosureRecord> {
  const seen = new Set<string>();
  const found = new Map<string, ClosureRecord>();
  for (const record of chronological(records)) {
    if (seen.has(record.closure_id)) continue;
    seen.add(record.closure_id);
    const named = record.reopens;
    if (named !== undefined && seen.has(named) && !found.has(named)) found.set(named, record);
  }
  return found;
}

const draftActs = {
  sent_unchanged: 'draft_sent_unchanged',
  sent_edited: 'draft_sent_edited',
  rejected: 'draft_rejected',
  cancelled: 'draft_cancelled',
} as const;

function draftActsOf(outbox: readonly OutboxRecord[]): DraftAct[] {
  const staged = firstPerKey(
    outbox.filter((record): record is DraftStaged => record.type === 'staged'),
    (record) => record.draft_id,
  );
  const decided = new Set<string>();
  const acts: DraftAct[] = [];
  for (const verdict of chronological(outbox)) {
    if (verdict.type !== 'outcome') continue;
    const deciding = !decided.has(verdict.draft_id);
    decided.add(verdict.draft_id);
    // A verdict a run's shell gave is the run's act, not the owner's (it still decides).
    if (verdict.sender === 'run_shell') continue;
    const draft = staged.get(verdict.draft_id);
    acts.push({
      act: draftActs[verdict.outcome],
      at: verdict.at,
      id: verdict.draft_id,
      record: verdict,
      deciding,
      staged: draft,
      session_ids: draft === undefined ? [] : [draft.session_id],
      sure: verdict.sender === 'owner',
    });
  }
  return acts;
}

function closureActsOf(closures: readonly ClosureRecord[]): (TaskClosingAct | TaskReopenAct)[] {
  const withdrawals = closureWithdrawals(closures);
  const closings = new Map<string, ClosureRecord>();
  const seen = new Set<string>();
  const acts: (TaskClosingAct | TaskReopenAct)[] = [];
  for (const record of chronological(closures)) {
    if (seen.has(record.closure_id)) continue;
    seen.add(record.closure_id);
    const sure = record.who !== 'unknown';
    if (isReopen(record)) {
      const undoes = record.reopens === undefined ? undefined : closings.get(record.reopens);
      acts.push({
        act: 'task_reopened',
        at: record.at,
        id: record.closure_id,
        record,
        undoes,
        from: undoes?.to ?? record.from,
        session_ids: undoes?.session_ids ?? record.session_ids,
        sure,
      });
    } else if (isClosing(record)) {
      closings.set(record.closure_id, record);
      acts.push({
        act: record.to === 'done' ? 'task_closed' : 'task_dropped',
        at: record.at,
        id: record.closure_id,
        record,
        session_ids: record.session_ids,
        withdrawn_by: withdrawals.get(record.closure_id),
        sure,
      });
    }
  }
  return acts;
}

type MutableWorkflowAct = { -readonly [K in keyof WorkflowAct]: WorkflowAct[K] };

function workflowActsOf(workflows: readonly WorkflowRecord[]): WorkflowAct[] {
  const byWorkflow = new Map<string, WorkflowRecord[]>();
  for (const record of chronological(workflows)) {
    const list = byWorkflow.get(record.workflow_id);
    if (list === undefined) byWorkflow.set(record.workflow_id, [record]);
    else list.push(record);
  }
  const acts: WorkflowAct[] = [];
  for (const [workflowId, lifecycle] of byWorkflow) {
    const started = lifecycle.filter((record): record is Started => record.type === 'started');
    const sessionIds = [...new Set(started.map((record) => record.session_id))];
    let status: 'open' | 'closed' | 'cancelled' = 'open';
    let standing: MutableWorkflowAct | undefined;
    let checkPassed = false;
    for (const record of lifecycle) {
      if (record.type === 'verified') checkPassed = record.passed;
      if (record.type !== 'closed' && record.type !== 'cancelled' && record.type !== 'reopened') {
        continue;
      }
      const act: MutableWorkflowAct = {
        act: `workflow_${record.type}`,
        at: record.at,
        id: workflowId,
        record,
        started,
        session_ids: sessionIds,
        effective: false,
        checked: record.type === 'closed' && checkPassed,
        withdrawn_by: undefined,
        sure: true,
      };
      if (record.type === 'reopened') {
        if (status !== 'open') {
          act.effective = true;
          act.reopened_from = status;
          if (standing !== undefined) standing.withdrawn_by = record;
          standing = undefined;
          status = 'open';
        }
      } else if (status === 'open') {
        act.effective = true;
        standing = act;
        status = record.type;
      }
      acts.push(act);
    }
  }
  return acts;
}

function questionActsOf(questions: readonly QuestionRecord[]): QuestionAct[] {
  const parked = firstPerKey(
    questions.filter((record): record is Parked => record.type === 'parked'),
    (record) => record.question_id,
  );
  const acts: QuestionAct[] = [];
  for (const [questionId, settlement] of firstSettlements(questions)) {
    if (settlement.type === 'parked') continue;
    const first = parked.get(questionId);
    acts.push({
      act: settlement.type === 'answered' ? 'question_answered' : 'question_abandoned',
      at: settlement.at,
      id: questionId,
      record: settlement,
      parked: first,
      session_ids: first === undefined ? [] : [first.session_id],
      sure: true,
    });
  }
  return acts;
}

const storeRank = { draft: 0, task: 1, workflow: 2, question: 3 } as const;

function rankOf(act: RecordedAct): number {
  return storeRank[act.act.slice(0, act.act.indexOf('_')) as keyof typeof storeRank];
}

/**
 * The owner's acts, derived once from the outbox, the closure record, the workflows and the
 * questions: each verdict on a draft that a run's shell did not give (marked when it is the
 * draft's deciding first verdict), each task closing
 * and reopen (with the reopen that withdraws a closing), each workflow close, cancel and
 * reopen (whether it changed the workflow's state, and what it withdrew), and each parked
 * question's settlement. Ordered by time; ties by store (drafts, tasks, workflows, questions)
 * and then in store order, so the list never depends on the order of records with different
 * timestamps. A store left out gives no acts: the caller says whether it was read.
 */
export function recordedActs(sources: ActSources): readonly RecordedAct[] {
  const acts: RecordedAct[] = [
    ...draftActsOf(sources.outbox ?? []),
    ...closureActsOf(sources.closures ?? []),
    ...workflowActsOf(sources.workflows ?? []),
    ...questionActsOf(sources.questions ?? []),
  ];
  return acts
    .map((act, index) => ({ act, index, time: Date.parse(act.at), rank: rankOf(act) }))
    .sort((a, b) => a.time - b.time || a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.act);
}

/** Whether an act is a draft's verdict. */
export function isDraftAct(act: RecordedAct): act is DraftAct {
  return act.act.startsWith('draft_');
}

/** Whether an act is a workflow's close, cancel or reopen. */
export function isWorkflowAct(act: RecordedAct): act is WorkflowAct {
  return act.act.startsWith('workflow_');
}
