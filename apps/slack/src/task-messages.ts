import type { BoardTask } from '@mecha/appraisal-core';
import type { ClosedFromSurface, TaskMoveRefusal } from '@mecha/stores';
import {
  actionIds,
  button,
  type Happened,
  happenedBlock,
  idFooter,
  nothingChangedReply,
  plainLines,
  type SlackMessage,
  slackText,
} from './slack-messages.js';

/** A task with what the board says around it: its project's title. */
export interface TaskView {
  readonly task: BoardTask;
  readonly projectTitle?: string | undefined;
}

/** The task's details in words: status, due date and project (`next · due 2026-12-05 · Q4`). */
export function taskDetails(view: TaskView): string {
  const { task } = view;
  return [
    task.status,
    task.due === undefined ? undefined : `due ${task.due.slice(0, 10)}`,
    view.projectTitle === undefined
      ? task.project_id === undefined
        ? undefined
        : `project ${task.project_id}`
      : `project “${view.projectTitle}”`,
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
}

/** The title in bold and the details under it, as mrkdwn, the title escaped. */
const taskSection = (view: TaskView) => ({
  type: 'section',
  text: {
    type: 'mrkdwn',
    text: `*${slackText(view.task.title)}*\n${slackText(taskDetails(view))}`,
  },
});

const taskButtons = (taskId: string, blockId: string) => ({
  type: 'actions',
  block_id: blockId,
  elements: [
    button(actionIds.taskDone, 'Done', taskId, 'primary'),
    button(actionIds.taskDrop, 'Drop', taskId),
  ],
});

/**
 * A message for one task: its title, status, due date and project, then Done and Drop, or
 * what happened in their place once acted on; the task's id in the footer.
 */
export function taskMessage(view: TaskView, happened?: Happened): SlackMessage {
  const { task } = view;
  return {
    text: slackText(
      `${task.title} (${taskDetails(view)})${happened === undefined ? '' : `: ${happened.what}`}`,
    ),
    blocks: [
      taskSection(view),
      happened === undefined
        ? taskButtons(task.id, `mecha_task:${task.id}`)
        : happenedBlock(happened),
      idFooter([task.id]),
    ],
  };
}

/** What a Done or Drop came to, in place of the buttons: `Done by you`, `Dropped by you`. */
export function closedWhat(closed: ClosedFromSurface): string {
  return closed.closure.to === 'done' ? 'Done by you' : 'Dropped by you';
}

/**
 * What else a Done or Drop did, under the message: the appraisal line as the closure record
 * holds it, the follow-up, a hook that failed after, and the project's reading when it was the
 * last task. The closure's id goes in the footer with the task's.
 */
export function closedDetails(closed: ClosedFromSurface): string[] {
  const lines = [closed.closure.appraisal_line ?? closed.appraisalLine];
  if (closed.followUp.state === 'staged') {
    lines.push(`Staged one follow-up in the inbox: “${closed.followUp.title}”.`);
  } else if (closed.followUp.state === 'not_staged') lines.push(closed.followUp.message);
  for (const failed of closed.hookFailures) {
    lines.push(`hooks/${failed.hook} failed after the task closed: ${failed.message}`);
  }
  if (closed.project !== null) {
    lines.push(`That was the last open task of its project. ${closed.project.line}`);
  }
  return lines;
}

/** A closed task's message: what happened in place of the buttons, and what else the act did. */
export function closedTaskMessage(
  view: TaskView,
  closed: ClosedFromSurface,
  at: Date,
): SlackMessage {
  const message = taskMessage(view, { what: closedWhat(closed), at });
  const [section, happened] = message.blocks;
  return {
    text: message.text,
    blocks: [
      section,
      happened,
      { type: 'context', elements: [plainLines(closedDetails(closed).join('\n'))] },
      idFooter([
        view.task.id,
        `closure ${closed.closure.closure_id}`,
        ...(closed.followUp.state === 'staged' ? [`follow-up ${closed.followUp.taskId}`] : []),
      ]),
    ],
  };
}

/**
 * The private reply to a Done or Drop that changed nothing, in words: a task already closed
 * says so by its title; any other refusal says why (a hook, a board that cannot be read).
 */
export function taskUnchangedReply(refusal: TaskMoveRefusal, task: BoardTask | undefined): string {
  if (task !== undefined && (task.status === 'done' || task.status === 'dropped')) {
    return slackText(
      `“${task.title}” was already ${task.status} before this tap, so nothing changed.`,
    );
  }
  return nothingChangedReply(refusal);
}
