// The brief's lines about the work: the goal and what it serves, the attempts at it so far and
// the board.
import type { StopCause } from '@mecha/appraisal-core';
import { ageBand } from './bands.js';
import { type Line, partial, read, unreadLine } from './brief-line.js';
import type { Reading } from './reading.js';
import type { Attempt, AttemptsInput, GoalInput, OwnerAct, ServedLine } from './situation-brief.js';
import type { BoardSummary } from './summarize-board.js';
import { counted, idsText, idText, lineText, listText, ownerWords, reasonText } from './words.js';

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

export function goalLine(goal: Reading<GoalInput>): Line {
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

export function attemptsLine(attempts: Reading<AttemptsInput>): Line {
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

export function boardLine(board: Reading<BoardSummary>): Line {
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
