import { stripControl, stripControlLines } from '@mecha/appraisal-core';

/** The action ids of the buttons this app posts. */
export const actionIds = {
  taskDone: 'mecha_task_done',
  taskDrop: 'mecha_task_drop',
  draftSend: 'mecha_draft_send',
  draftEdit: 'mecha_draft_edit',
  draftReject: 'mecha_draft_reject',
  /** A link button: Slack opens the board and sends the tap too, which is only acknowledged. */
  draftOpenBoard: 'mecha_draft_open_board',
} as const;

/** The callback id of the modal the Edit button opens. */
export const editDraftCallbackId = 'mecha_draft_edit';
/** The callback id of the modal the Reject button opens (the reason, optional). */
export const rejectDraftCallbackId = 'mecha_draft_reject';

/**
 * Text for Slack's mrkdwn, from text that may come from anyone (a task's title can be a
 * stranger's mail subject): control characters stripped, and `&`, `<`, `>` escaped so no
 * mention, link or broadcast can be smuggled in.
 */
export function slackText(text: string): string {
  return stripControlLines(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The private reply to an act the owner's package refused (a `Refusal`): nothing changed, and
 * its words why. The one place a refusal becomes a Slack reply.
 */
export function nothingChangedReply(refusal: { readonly message: string }): string {
  return slackText(`Nothing changed: ${refusal.message}.`.replace(/\.\.$/, '.'));
}

/** Plain text for a block (never interpreted as mrkdwn), cut to Slack's limit. */
export function plain(
  text: string,
  limit = 3000,
): { type: 'plain_text'; text: string; emoji: false } {
  const clean = stripControl(text);
  return {
    type: 'plain_text',
    text: clean.length > limit ? `${clean.slice(0, limit - 1)}…` : clean,
    emoji: false,
  };
}

/** Plain text whose lines matter (a draft, an edit): each line made safe, the breaks kept. */
export function plainLines(
  text: string,
  limit = 3000,
): { type: 'plain_text'; text: string; emoji: false } {
  const clean = stripControlLines(text);
  return {
    type: 'plain_text',
    text: clean.length > limit ? `${clean.slice(0, limit - 1)}…` : clean,
    emoji: false,
  };
}

export const count = (value: number) => value.toLocaleString('en');

export const button = (
  actionId: string,
  label: string,
  value: string,
  style?: 'primary' | 'danger',
) => ({
  type: 'button',
  action_id: actionId,
  text: plain(label),
  value,
  ...(style === undefined ? {} : { style }),
});

/** A Slack message: the notification text and its blocks. */
export interface SlackMessage {
  readonly text: string;
  readonly blocks: readonly unknown[];
}

/** What an act came to, shown in place of the buttons it replaced: `Done by you` and when. */
export interface Happened {
  readonly what: string;
  readonly at: Date;
}

/**
 * A moment as Slack shows it to each reader, in their own time zone, with the time in UTC as
 * the words a client that cannot render dates shows (`14:02 UTC`).
 */
export function slackTime(at: Date): { readonly mrkdwn: string; readonly text: string } {
  const text = `${at.toISOString().slice(11, 16)} UTC`;
  return { mrkdwn: `<!date^${Math.floor(at.getTime() / 1000)}^{time}|${text}>`, text };
}

/** The context line that replaces an act's buttons: `Done by you · 14:02`. */
export function happenedBlock(happened: Happened): unknown {
  return {
    type: 'context',
    block_id: 'mecha_happened',
    elements: [
      { type: 'mrkdwn', text: `${slackText(happened.what)} · ${slackTime(happened.at).mrkdwn}` },
    ],
  };
}

/** The small grey footer where ids go, so the message itself reads in words. */
export function idFooter(parts: readonly string[]): unknown {
  return { type: 'context', elements: [plain(parts.join(' · '))] };
}

/** What a Slack user not mapped to the owner is told; nothing was written. */
export const notOwnerReply =
  'Only the owner acts on mecha from Slack, and your Slack user is not mapped to the owner (MECHA_SLACK_OWNERS). Nothing changed.';
