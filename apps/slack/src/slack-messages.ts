import { type BoardTask, stripControl, stripControlLines } from '@mecha/appraisal-core';
import {
  type ClosedFromSurface,
  type DraftVerdict,
  draftAsShown,
  type OwnerRefusal,
  type SurfaceRefusal,
} from '@mecha/stores';

/** The action ids of the buttons this app posts. */
export const actionIds = {
  taskDone: 'mecha_task_done',
  taskDrop: 'mecha_task_drop',
  draftSend: 'mecha_draft_send',
  draftEdit: 'mecha_draft_edit',
  draftReject: 'mecha_draft_reject',
} as const;

/** The callback id of the modal the Edit button opens. */
export const editDraftCallbackId = 'mecha_draft_edit';

/**
 * Text for Slack's mrkdwn, from text that may come from anyone (a task's title can be a
 * stranger's mail subject): control characters stripped, and `&`, `<`, `>` escaped so no
 * mention, link or broadcast can be smuggled in.
 */
export function slackText(text: string): string {
  return stripControlLines(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain text for a block (never interpreted as mrkdwn), cut to Slack's limit. */
function plain(text: string, limit = 3000): { type: 'plain_text'; text: string; emoji: false } {
  const clean = stripControl(text);
  return {
    type: 'plain_text',
    text: clean.length > limit ? `${clean.slice(0, limit - 1)}…` : clean,
    emoji: false,
  };
}

/** The most characters Slack's plain-text input holds, pre-filled or typed. */
export const slackEditLimit = 3000;

/**
 * How long a draft is in its edit box, when that is more than Slack's box holds; `undefined`
 * when it fits. Counted in UTF-16 units (a character outside the basic plane counts twice), so
 * a draft that fits by this count fits Slack's box whole: the box is never pre-filled with a
 * cut-short draft, which would send the owner's words truncated.
 */
export function tooLongToEditInSlack(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const length = draftAsShown(text).length;
  return length > slackEditLimit ? length : undefined;
}

const count = (value: number) => value.toLocaleString('en');

/** What Slack says when a draft is too long to edit there: where to edit it instead. */
export function tooLongToEditReply(draftId: string, length: number): string {
  return slackText(
    `${draftId} is too long to edit in Slack: ${count(length)} characters, and Slack's edit box holds ${count(slackEditLimit)}. Edit it on the web board (mecha web, Drafts and questions), or Send or Reject it here. Nothing changed.`,
  );
}

const button = (actionId: string, label: string, value: string, style?: 'primary' | 'danger') => ({
  type: 'button',
  action_id: actionId,
  text: plain(label),
  value,
  ...(style === undefined ? {} : { style }),
});

/** A message for one open task, with its Done and Drop buttons. */
export function taskMessage(task: BoardTask): { text: string; blocks: unknown[] } {
  const title = `${task.title} (${task.id} · ${task.status})`;
  return {
    text: slackText(title),
    blocks: [
      { type: 'section', text: plain(title) },
      {
        type: 'actions',
        block_id: `mecha_task:${task.id}`,
        elements: [
          button(actionIds.taskDone, 'Done', task.id, 'primary'),
          button(actionIds.taskDrop, 'Drop', task.id),
        ],
      },
    ],
  };
}

/** A staged draft waiting on the owner: what it is, its text, and Send, Edit and Reject. */
export function draftMessage(draft: {
  readonly draft_id: string;
  readonly session_id: string;
  readonly tool: string;
  readonly text?: string | undefined;
}): { text: string; blocks: unknown[] } {
  const head = `Draft ${draft.draft_id} from session ${draft.session_id}, waiting on you (${draft.tool})`;
  const tooLong = tooLongToEditInSlack(draft.text);
  return {
    text: slackText(head),
    blocks: [
      { type: 'section', text: plain(head) },
      ...(draft.text === undefined || draft.text === ''
        ? [{ type: 'context', elements: [plain('The draft was staged without its text.')] }]
        : [{ type: 'section', text: plain(draft.text) }]),
      ...(tooLong === undefined
        ? []
        : [
            {
              type: 'context',
              elements: [
                plain(
                  `Too long to edit in Slack (${count(tooLong)} characters; its edit box holds ${count(slackEditLimit)}): edit ${draft.draft_id} on the web board (mecha web, Drafts and questions).`,
                ),
              ],
            },
          ]),
      {
        type: 'actions',
        block_id: `mecha_draft:${draft.draft_id}`,
        elements: [
          button(actionIds.draftSend, 'Send', draft.draft_id, 'primary'),
          // No Edit for a draft Slack's box cannot hold whole: it would be sent cut short.
          ...(tooLong === undefined ? [button(actionIds.draftEdit, 'Edit', draft.draft_id)] : []),
          button(actionIds.draftReject, 'Reject', draft.draft_id, 'danger'),
        ],
      },
    ],
  };
}

/**
 * The modal the Edit button opens: the draft's text to edit as every edit box shows it
 * (`draftAsShown`), sent as edited on submit. Only for a draft that fits Slack's box whole
 * (`tooLongToEditInSlack`); the box takes no more than Slack holds.
 */
export function editDraftView(
  draft: { readonly draft_id: string; readonly text?: string | undefined },
  reply: { readonly channel: string; readonly ts: string },
): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: editDraftCallbackId,
    private_metadata: JSON.stringify({ draftId: draft.draft_id, ...reply }),
    title: plain('Edit the draft', 24),
    submit: plain('Send edited', 24),
    close: plain('Cancel', 24),
    blocks: [
      {
        type: 'input',
        block_id: 'draft',
        label: plain(`${draft.draft_id}, as you want it sent`),
        element: {
          type: 'plain_text_input',
          action_id: 'text',
          multiline: true,
          max_length: slackEditLimit,
          ...(draft.text === undefined ? {} : { initial_value: draftAsShown(draft.text) }),
        },
      },
    ],
  };
}

/**
 * The thread reply after a Done or Drop tap: the closure line, the appraisal line as the
 * closure record holds it, the follow-up, and the project's reading when it was the last task.
 */
export function closedReply(closed: ClosedFromSurface): string {
  const lines = [closed.closureLine, closed.closure.appraisal_line ?? closed.appraisalLine];
  if (closed.followUp.state === 'staged') {
    lines.push(
      `Staged one follow-up: ${closed.followUp.taskId} "${closed.followUp.title}" (inbox).`,
    );
  } else if (closed.followUp.state === 'not_staged') lines.push(closed.followUp.message);
  for (const failed of closed.hookFailures) {
    lines.push(`hooks/${failed.hook} failed: ${failed.message}`);
  }
  if (closed.project !== null) {
    lines.push(`That was the last open task of ${closed.project.projectId}.`, closed.project.line);
  }
  return slackText(lines.join('\n'));
}

/** The reply when a tap changed nothing (closed elsewhere since, gone from the board, …). */
export function refusedReply(refusal: SurfaceRefusal | OwnerRefusal): string {
  return slackText(`Nothing changed: ${refusal.message}`);
}

/** The reply after a draft verdict. */
export function draftReply(verdict: DraftVerdict): string {
  return slackText(`${verdict.line} (recorded as the ${verdict.sender}'s verdict)`);
}

/** What a Slack user not mapped to the owner is told; nothing was written. */
export const notOwnerReply =
  'Only the owner acts on mecha from Slack, and your Slack user is not mapped to the owner (MECHA_SLACK_OWNERS). Nothing changed.';
