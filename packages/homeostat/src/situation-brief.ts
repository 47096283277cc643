import type {
  BriefFieldRecord,
  ConditionsSnapshot,
  SituationBriefRecord,
  StopCause,
} from '@mecha/appraisal-core';
import { ageBand } from './bands.js';
import { commitmentsLine } from './commitments-line.js';
import type { OwnerTime } from './owner-time.js';
import type { Reading } from './reading.js';
import type { BoardSummary } from './summarize-board.js';
import { counted, idsText, idText, lineText, listText, ownerWords, reasonText } from './words.js';

/** A charter line a goal serves, with its rank (1 is the top); the brief never prints the rank. */
export interface ServedLine {
  readonly id: string;
  readonly rank: number;
}

/** The project a task sits under, with how many tasks are open there (`complete: false`: at least). */
export interface GoalProject {
  readonly id: string;
  readonly openTasks: number;
  readonly complete: boolean;
}

/**
 * The chain above a run's goal: its task and project, or its trigger, request or charter line,
 * and the charter lines it serves. A run with no goal is `no_anchor`, not an empty chain.
 */
export type GoalInput =
  | { readonly anchor: 'no_anchor' }
  | {
      readonly anchor: 'task';
      readonly taskId: string;
      /** `none` when the task is under no project. */
      readonly project: Reading<GoalProject | 'none'>;
      readonly serves: Reading<readonly ServedLine[]>;
    }
  | {
      readonly anchor: 'project' | 'trigger' | 'request' | 'charter';
      readonly id: string;
      readonly serves: Reading<readonly ServedLine[]>;
    };

/**
 * Something the owner did with an earlier session's work, named by what it was done to. A
 * rejected draft carries no reason by construction: the brief does not quote one yet. A reopen's
 * reason is quoted only when the owner reopened the task themself.
 */
export type OwnerAct =
  | {
      readonly act:
        | 'draft_rejected'
        | 'draft_sent_unchanged'
        | 'draft_sent_edited'
        | 'draft_cancelled';
      readonly draftId: string;
    }
  | { readonly act: 'task_closed'; readonly closureId: string; readonly to: 'done' | 'dropped' }
  | {
      readonly act: 'task_reopened';
      readonly closureId: string;
      readonly by: 'owner' | 'agent_with_approval' | 'unknown';
      readonly reason?: string;
    }
  | { readonly act: 'question_answered' | 'question_let_go'; readonly questionId: string };

/** One earlier session on the same task: when it started, what the owner did, how it ended. */
export interface Attempt {
  readonly sessionId: string;
  /** Milliseconds between its start and now. */
  readonly startedAgo: Reading<number>;
  readonly ownerActs: Reading<readonly OwnerAct[]>;
  /** The stop cause the harness recorded, or `no_end_recorded`. */
  readonly ended: Reading<StopCause | 'no_end_recorded'>;
}

/**
 * Earlier sessions on the run's task, newest first (the brief shows three). `short` says why
 * the list may be incomplete — a session file that could not be read, older sessions not
 * searched — and makes the count "at least". A run not on a task is `not_a_task`.
 */
export type AttemptsInput =
  | { readonly kind: 'not_a_task' }
  | { readonly kind: 'task'; readonly sessions: readonly Attempt[]; readonly short?: string };

/** Background seats on the model: how many there are and what holds them. */
export interface SeatsInput {
  readonly total: number;
  readonly heldBy: readonly string[];
}

/** Other delegated tasks and trigger runs in flight, by id; interactive chats are not counted. */
export interface RunsInput {
  readonly delegatedTasks: readonly string[];
  readonly triggers: readonly string[];
}

/** The local model server's slots (`GET /slots`); `not_local` when the provider is not local. */
export type SlotsInput =
  | { readonly kind: 'not_local' }
  | { readonly kind: 'local'; readonly total: number; readonly busy: number };

/** Whether a voice call is in progress: see `voiceState`. */
export interface VoiceInput {
  readonly inCall: boolean;
}

/** The run's ceilings; `none` is a known absence of a ceiling, not an unknown one. */
export interface BudgetInput {
  readonly maxTurns: number | 'none';
  readonly outputTokenCeiling: number | 'none';
  readonly costCeilingUsd: number | 'none';
  readonly contextWindow: number | 'none';
  /** Prompt tokens at which the conversation is compacted. */
  readonly compactionThreshold: number | 'none';
}

/**
 * Everything a situation brief is rendered from. Every field is a reading, so any of them may be
 * unknown with its reason; the commitments come from the conditions snapshot (absent when none
 * was sampled).
 */
export interface SituationInput {
  readonly goal: Reading<GoalInput>;
  readonly attempts: Reading<AttemptsInput>;
  readonly board: Reading<BoardSummary>;
  readonly conditions: ConditionsSnapshot | undefined;
  readonly time: Reading<OwnerTime>;
  readonly seats: Reading<SeatsInput>;
  readonly runs: Reading<RunsInput>;
  readonly slots: Reading<SlotsInput>;
  readonly voice: Reading<VoiceInput>;
  readonly budget: Reading<BudgetInput>;
}

/** A rendered brief: the words, and each field's read state — the shape a run records. */
export type SituationBrief = Omit<SituationBriefRecord, 'delivered'>;

/** The first line of every brief: what it is, that a later one replaces it, that it asks nothing. */
export const briefHeading =
  'Situation brief, assembled by the harness as things stood when it was written; a later situation brief in this conversation replaces this one. It only describes; it asks nothing of you.';

interface Line {
  readonly text: string | undefined;
  readonly field: BriefFieldRecord;
}

const read = (text: string): Line => ({ text, field: { state: 'read' } });
const partial = (text: string, reason: string): Line => ({
  text,
  field: { state: 'partial', reason: reasonText(reason) },
});

function unreadLine(label: string, reading: { reason: string }): Line {
  const reason = reasonText(reading.reason);
  return { text: `${label}: could not be read (${reason}).`, field: { state: 'unread', reason } };
}

function served(serves: Reading<readonly ServedLine[]>): string {
  if (serves.state !== 'read') {
    return `Which charter lines it serves could not be read (${reasonText(serves.reason)}).`;
  }
  if (serves.value.length === 0) return 'No store links it to a charter line.';
  const lines = [...serves.value]
    .sort((a, b) => a.rank - b.rank)
    .map((line) => `${lineText(line.id)}${line.rank === 1 ? ' (your highest-ranked)' : ''}`);
  return `It serves charter line${lines.length === 1 ? '' : 's'} ${listText(lines)}.`;
}

function goalLine(goal: Reading<GoalInput>): Line {
  if (goal.state !== 'read') return unreadLine('Goal', goal);
  const value = goal.value;
  if (value.anchor === 'no_anchor') {
    return { text: 'Goal: this run names none.', field: { state: 'no_anchor' } };
  }
  const problems: string[] = [];
  if (value.serves.state !== 'read') problems.push(value.serves.reason);
  let head: string;
  if (value.anchor === 'task') {
    head = `Goal: task ${idText(value.taskId)}`;
    const project = value.project;
    if (project.state !== 'read') {
      problems.push(project.reason);
      head += `; its project could not be read (${reasonText(project.reason)}).`;
    } else if (project.value === 'none') {
      head += ', under no project.';
    } else {
      const { id, openTasks, complete } = project.value;
      if (!complete) problems.push('the board response was cut short');
      head += `, under project ${idText(id)} (${complete ? '' : 'at least '}${counted(openTasks, 'open task')} there).`;
    }
  } else if (value.anchor === 'charter') {
    head = `Goal: charter line ${lineText(value.id)}.`;
  } else {
    const noun = { project: 'project', trigger: 'trigger', request: 'front-door request' }[
      value.anchor
    ];
    head = `Goal: ${noun} ${idText(value.id)}.`;
  }
  const text = `${head} ${served(value.serves)}`;
  const [problem] = problems;
  return problem === undefined ? read(text) : partial(text, problem);
}

const endings: Readonly<Record<StopCause | 'no_end_recorded', string>> = {
  completed: 'the model ended its turn',
  stopped: 'a person stopped it',
  shutdown: 'the harness shut down',
  parked: 'it parked a question for the owner',
  interrupted: 'it was interrupted',
  turn_ceiling: 'it hit the turn limit',
  token_ceiling: 'it hit the output-token ceiling',
  cost_ceiling: 'it hit the cost ceiling',
  loop: 'the loop guard stopped it',
  empty_output: 'the model returned nothing',
  failed_call: 'a model call failed',
  error: 'the harness hit an error',
  no_end_recorded: 'no end was recorded',
};

function actText(act: OwnerAct): string {
  switch (act.act) {
    case 'draft_rejected':
      return `rejected draft ${idText(act.draftId)}`;
    case 'draft_sent_unchanged':
      return `sent draft ${idText(act.draftId)} unchanged`;
    case 'draft_sent_edited':
      return `edited draft ${idText(act.draftId)} and sent it`;
    case 'draft_cancelled':
      return `cancelled draft ${idText(act.draftId)}`;
    case 'task_closed':
      return act.to === 'done'
        ? `closed the task as done (${idText(act.closureId)})`
        : `dropped the task (${idText(act.closureId)})`;
    case 'task_reopened': {
      const closure = idText(act.closureId);
      if (act.by === 'owner') {
        return act.reason === undefined || act.reason.trim() === ''
          ? `reopened the task (${closure}), giving no reason`
          : `reopened the task (${closure}) and wrote, in the owner's own words: ${ownerWords(act.reason)}`;
      }
      const who =
        act.by === 'agent_with_approval'
          ? "through a chat, with the owner's approval"
          : 'by someone the record does not name';
      const reason =
        act.reason === undefined ? '' : '; a reason was given and is not repeated here';
      return `reopened the task (${closure}) ${who}${reason}`;
    }
    case 'question_answered':
      return `answered question ${idText(act.questionId)}`;
    case 'question_let_go':
      return `let question ${idText(act.questionId)} go`;
  }
}

function attemptLines(attempt: Attempt): { lines: string[]; problem?: string } {
  const problems: string[] = [];
  const started =
    attempt.startedAgo.state === 'read'
      ? `started ${ageBand(attempt.startedAgo.value)} ago`
      : `when it started could not be read: ${reasonText(attempt.startedAgo.reason)}`;
  if (attempt.startedAgo.state !== 'read') problems.push(attempt.startedAgo.reason);
  let acts: string;
  if (attempt.ownerActs.state !== 'read') {
    problems.push(attempt.ownerActs.reason);
    acts = `What the owner did with its work could not be read (${reasonText(attempt.ownerActs.reason)}).`;
  } else if (attempt.ownerActs.value.length === 0) {
    acts = 'The owner has done nothing with its work on record.';
  } else {
    acts = `The owner: ${attempt.ownerActs.value.map(actText).join('; ')}.`;
  }
  let ended: string;
  if (attempt.ended.state === 'read') {
    ended = `How it ended, as the harness recorded it (not a verdict): ${endings[attempt.ended.value]}.`;
  } else {
    problems.push(attempt.ended.reason);
    ended = `How it ended could not be read (${reasonText(attempt.ended.reason)}).`;
  }
  const [problem] = problems;
  return {
    lines: [`  - Session ${idText(attempt.sessionId)} (${started}). ${acts}`, `    ${ended}`],
    ...(problem === undefined ? {} : { problem }),
  };
}

function attemptsLine(attempts: Reading<AttemptsInput>): Line {
  if (attempts.state !== 'read') return unreadLine('Previous attempts at this task', attempts);
  const value = attempts.value;
  if (value.kind === 'not_a_task') return { text: undefined, field: { state: 'not_a_task' } };
  const shown = value.sessions.slice(0, 3);
  const atLeast = value.short === undefined ? '' : 'at least ';
  const short =
    value.short === undefined ? '' : ` (the search was cut short: ${reasonText(value.short)})`;
  let head: string;
  if (value.sessions.length === 0) {
    head =
      value.short === undefined
        ? 'Previous attempts at this task: none; this is the first session on it.'
        : `Previous attempts at this task: none found${short}.`;
  } else {
    const more =
      value.sessions.length > shown.length ? `; the newest ${shown.length} are shown` : '';
    head = `Previous attempts at this task: ${atLeast}${counted(value.sessions.length, 'earlier session')}${short}, newest first${more}.`;
  }
  const rendered = shown.map(attemptLines);
  const text = [head, ...rendered.flatMap((attempt) => attempt.lines)].join('\n');
  const problem = value.short ?? rendered.find((attempt) => attempt.problem)?.problem;
  return problem === undefined ? read(text) : partial(text, problem);
}

function boardLine(board: Reading<BoardSummary>): Line {
  if (board.state !== 'read') return unreadLine('Board', board);
  const value = board.value;
  const whole = value.complete;
  const at = (count: number) => (whole ? `${count}` : `at least ${count}`);
  const none = (what: string) => (whole ? `none ${what}` : `none found ${what}`);
  const totalOpen = value.open.inbox + value.open.next + value.open.waiting;
  const breakdown = `${value.open.inbox} inbox, ${value.open.next} next, ${value.open.waiting} waiting`;
  const parts = [
    totalOpen === 0
      ? whole
        ? 'no open tasks'
        : 'no open tasks found in what could be read'
      : `${at(totalOpen)} open ${totalOpen === 1 ? 'task' : 'tasks'} (${whole ? breakdown : `of those read: ${breakdown}`})`,
    value.overdue.length === 0
      ? none('overdue')
      : `${at(value.overdue.length)} overdue (${idsText(value.overdue)})`,
    value.dueThisWeek.length === 0
      ? none('due in the coming week')
      : `${at(value.dueThisWeek.length)} due in the coming week (${idsText(value.dueThisWeek)})`,
    value.waitingOnOwner === 0
      ? none('waiting on the owner')
      : `${at(value.waitingOnOwner)} waiting on the owner`,
    value.waitingOnOthers === 0
      ? none('waiting on someone else')
      : `${at(value.waitingOnOthers)} waiting on someone else`,
    value.heldByAgent === 0
      ? none('held by the agent')
      : `${at(value.heldByAgent)} held by the agent`,
  ];
  let text = `Board: ${parts.join('; ')}.`;
  const own = value.ownTask;
  if (own === 'not_on_board') {
    text += whole
      ? ' Your own task is not on the board.'
      : ' Your own task was not in what could be read of the board.';
  } else if (own !== undefined) {
    const due =
      own.due !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(own.due)
        ? `, due ${own.due}`
        : ', with no due date';
    text += ` Your own task is \`${own.status}\`${due}.`;
  }
  return whole ? read(text) : partial(text, 'the board response was cut short');
}

function timeLine(time: Reading<OwnerTime>): Line {
  if (time.state !== 'read') return unreadLine('Time', time);
  const { weekday, partOfDay, quietHours } = time.value;
  const quiet =
    quietHours.state !== 'read'
      ? `whether it is inside their quiet hours could not be read (${reasonText(quietHours.reason)})`
      : quietHours.value === 'none_recorded'
        ? 'no quiet hours are recorded'
        : `${quietHours.value} their quiet hours`;
  const text = `Time: ${weekday.replace(/[^\p{L} ]/gu, '')} ${partOfDay} for the owner; ${quiet}.`;
  return quietHours.state === 'read' ? read(text) : partial(text, quietHours.reason);
}

/** A count the brief may print as a number, or undefined when it is not one. */
function whole(value: number): string | undefined {
  return Number.isFinite(value) && value >= 0 ? String(value) : undefined;
}

function seatsLine(seats: Reading<SeatsInput>): Line {
  if (seats.state !== 'read') return unreadLine('Background seats', seats);
  const total = whole(seats.value.total);
  if (total === undefined)
    return unreadLine('Background seats', { reason: 'the seat count is not a number' });
  const free = Math.max(0, seats.value.total - seats.value.heldBy.length);
  const held =
    seats.value.heldBy.length === 0 ? 'none held' : `held by ${idsText(seats.value.heldBy)}`;
  return read(`Background seats: ${free} of ${total} free; ${held}.`);
}

function runsLine(runs: Reading<RunsInput>): Line {
  if (runs.state !== 'read') return unreadLine('Other runs in flight', runs);
  const { delegatedTasks, triggers } = runs.value;
  const tasks =
    delegatedTasks.length === 0
      ? 'no delegated tasks'
      : `delegated task${delegatedTasks.length === 1 ? '' : 's'} ${idsText(delegatedTasks)}`;
  const fired =
    triggers.length === 0
      ? 'no triggers'
      : `trigger${triggers.length === 1 ? '' : 's'} ${idsText(triggers)}`;
  return read(`Other runs in flight: ${tasks}; ${fired} (interactive chats are not counted).`);
}

function slotsLine(slots: Reading<SlotsInput>): Line {
  if (slots.state !== 'read') return unreadLine('Model server', slots);
  const value = slots.value;
  if (value.kind === 'not_local') {
    return {
      text: 'Model server: not a local one, so its slots are not read.',
      field: { state: 'not_local' },
    };
  }
  if (!(value.total > 0) || !(value.busy >= 0)) {
    return unreadLine('Model server', { reason: 'the slot counts are not numbers' });
  }
  const words =
    value.busy === 0
      ? 'idle'
      : value.busy < value.total
        ? 'busy with other work, with a slot free'
        : 'busy with other work in every slot';
  return read(`Model server: ${words}.`);
}

function voiceLine(voice: Reading<VoiceInput>): Line {
  if (voice.state !== 'read') return unreadLine('Voice', voice);
  return read(
    voice.value.inCall
      ? 'Voice: the owner spoke to you within the last few minutes; a call may be in progress.'
      : 'Voice: no call in progress.',
  );
}

function budgetLine(budget: Reading<BudgetInput>): Line {
  if (budget.state !== 'read') return unreadLine('Budget', budget);
  const value = budget.value;
  const part = (
    ceiling: number | 'none',
    none: string,
    some: (amount: string) => string,
    what: string,
  ) => {
    if (ceiling === 'none') return none;
    const amount = whole(ceiling);
    return amount === undefined ? `${what} could not be read` : some(amount);
  };
  const parts = [
    part(value.maxTurns, 'no turn limit', (n) => `up to ${n} turns`, 'the turn limit'),
    part(
      value.outputTokenCeiling,
      'no output-token ceiling',
      (n) => `an output-token ceiling of ${n}`,
      'the output-token ceiling',
    ),
    part(
      value.costCeilingUsd,
      'no cost ceiling',
      (n) => `a cost ceiling of ${n} USD`,
      'the cost ceiling',
    ),
    part(
      value.contextWindow,
      'no declared context window',
      (n) => `a context window of ${n} tokens`,
      'the context window',
    ),
    part(
      value.compactionThreshold,
      'no compaction threshold',
      (n) => `compaction at ${n} prompt tokens`,
      'the compaction threshold',
    ),
  ];
  return read(`Budget: ${parts.join('; ')}.`);
}

/**
 * Renders the situation brief from what mecha read itself, by the brief's rules: numbers only
 * for budgets, board counts and ids; bands for anything score-like; "could not be read" with the
 * reason for anything unknown, never "none"; "at least" where a count may be short; and only the
 * owner's own words quoted. Pure: the same input always gives the same words.
 */
export function renderBrief(input: SituationInput): SituationBrief {
  const commitments = commitmentsLine(input.conditions);
  const lines = {
    goal: goalLine(input.goal),
    attempts: attemptsLine(input.attempts),
    board: boardLine(input.board),
    commitments: { text: commitments.line, field: commitments.field },
    time: timeLine(input.time),
    seats: seatsLine(input.seats),
    runs: runsLine(input.runs),
    slots: slotsLine(input.slots),
    voice: voiceLine(input.voice),
    budget: budgetLine(input.budget),
  };
  const body = Object.values(lines)
    .flatMap((line) => (line.text === undefined ? [] : [`- ${line.text}`]))
    .join('\n');
  return {
    text: `${briefHeading}\n${body}`,
    fields: {
      goal: lines.goal.field,
      attempts: lines.attempts.field,
      board: lines.board.field,
      commitments: lines.commitments.field,
      time: lines.time.field,
      seats: lines.seats.field,
      runs: lines.runs.field,
      slots: lines.slots.field,
      voice: lines.voice.field,
      budget: lines.budget.field,
    },
  };
}
