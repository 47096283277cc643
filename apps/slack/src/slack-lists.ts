import { type DraftView, draftMessage } from './draft-messages.js';
import {
  actionIds,
  type Happened,
  happenedBlock,
  type SlackMessage,
  slackText,
} from './slack-messages.js';
import { type TaskView, taskDetails } from './task-messages.js';

/** The most task rows `/mecha tasks` shows; the rest are counted, "N more on the board". */
export const taskListCap = 12;
/** The most drafts `/mecha drafts` shows (each with its text and buttons). */
export const draftListCap = 3;

const groups = [
  ['next', 'Next'],
  ['waiting', 'Waiting'],
  ['inbox', 'Inbox'],
] as const;

/** The act that was just taken on a list's row, said at the top of the list that replaces it. */
export interface ListAct extends Happened {
  /** The task's title or the draft's headline. */
  readonly on: string;
}

const moreLine = (more: number, what: string) => ({
  type: 'context',
  elements: [
    {
      type: 'plain_text',
      text: `${more} more ${what} on the board (mecha web).`,
      emoji: false,
    },
  ],
});

const actLine = (act: ListAct | undefined) =>
  act === undefined ? [] : [happenedBlock({ what: `“${act.on}”: ${act.what}`, at: act.at })];

/**
 * `/mecha tasks` as one message only its reader sees: the open tasks grouped Next, Waiting,
 * Inbox, each row its title, due date and project with Done and Drop, at most
 * {@link taskListCap} rows and then "N more on the board". After a tap it is shown again with
 * what the tap did at the top.
 */
export function taskListMessage(views: readonly TaskView[], act?: ListAct): SlackMessage {
  // Next first, then Waiting, then Inbox, each in board order; the cap keeps what comes first.
  const rank = (view: TaskView) => groups.findIndex(([status]) => status === view.task.status);
  const shown = [...views].sort((a, b) => rank(a) - rank(b)).slice(0, taskListCap);
  const more = views.length - shown.length;
  const blocks: unknown[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text:
          views.length === 0
            ? '*No open tasks.*'
            : `*Your open tasks: ${views.length}* (only you see this list)`,
      },
    },
    ...actLine(act),
  ];
  for (const [status, heading] of groups) {
    const rows = shown.filter((view) => view.task.status === status);
    if (rows.length === 0) continue;
    blocks.push({
      type: 'header',
      text: { type: 'plain_text', text: `${heading} (${rows.length})`, emoji: false },
    });
    for (const view of rows) {
      blocks.push(
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: `*${slackText(view.task.title)}*\n${slackText(taskDetails(view))}`,
          },
        },
        {
          type: 'actions',
          block_id: `mecha_tasks_row:${view.task.id}`,
          elements: [
            {
              type: 'button',
              action_id: actionIds.taskDone,
              text: { type: 'plain_text', text: 'Done', emoji: false },
              value: view.task.id,
              style: 'primary',
            },
            {
              type: 'button',
              action_id: actionIds.taskDrop,
              text: { type: 'plain_text', text: 'Drop', emoji: false },
              value: view.task.id,
            },
          ],
        },
      );
    }
  }
  if (more > 0) blocks.push(moreLine(more, more === 1 ? 'task' : 'tasks'));
  return {
    text:
      views.length === 0
        ? 'No open tasks.'
        : `Your open tasks: ${views.length}${more > 0 ? ` (${more} more on the board)` : ''}`,
    blocks,
  };
}

/**
 * `/mecha drafts` as one message only its reader sees: the drafts waiting on the owner, those
 * staged before the app started included, each as its own message shows it (goal, chip, text,
 * Send, Edit, Reject), at most {@link draftListCap}, then "N more on the board".
 */
export function draftListMessage(views: readonly DraftView[], act?: ListAct): SlackMessage {
  const shown = views.slice(0, draftListCap);
  const more = views.length - shown.length;
  const blocks: unknown[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text:
          views.length === 0
            ? '*No drafts are waiting on you.*'
            : `*Drafts waiting on you: ${views.length}* (only you see this list)`,
      },
    },
    ...actLine(act),
  ];
  for (const view of shown) {
    blocks.push({ type: 'divider' }, ...draftMessage(view).blocks);
  }
  if (more > 0) blocks.push(moreLine(more, more === 1 ? 'draft' : 'drafts'));
  return {
    text:
      views.length === 0
        ? 'No drafts are waiting on you.'
        : `Drafts waiting on you: ${views.length}${more > 0 ? ` (${more} more on the board)` : ''}`,
    blocks,
  };
}
