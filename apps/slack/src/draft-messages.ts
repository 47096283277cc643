import { goalText, type OutboxRecord, stripControl } from '@mecha/appraisal-core';
import { type DraftVerdict, draftAsShown, type OwnerActRefusal } from '@mecha/stores';
import {
  actionIds,
  button,
  count,
  editDraftCallbackId,
  type Happened,
  happenedBlock,
  idFooter,
  nothingChangedReply,
  plain,
  plainLines,
  rejectDraftCallbackId,
  type SlackMessage,
  slackText,
} from './slack-messages.js';

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

/** What Slack says when a draft is too long to edit there: where to edit it instead. */
export function tooLongToEditReply(draftId: string, length: number): string {
  return slackText(
    `${draftId} is too long to edit in Slack: ${count(length)} characters, and Slack's edit box holds ${count(slackEditLimit)}. Edit it on the web board (mecha web, Drafts and questions), or Send or Reject it here. Nothing changed.`,
  );
}

/** A staged draft, as the outbox holds it. */
export type StagedDraft = Extract<OutboxRecord, { readonly type: 'staged' }>;

/** A draft with what the home says around it: its goal's title, and where the board is. */
export interface DraftView {
  readonly draft: StagedDraft;
  readonly goalTitle?: string | undefined;
  /** The web board's address (`MECHA_SLACK_BOARD_URL`), for "Open on the board". */
  readonly boardUrl?: string | undefined;
}

/** The third-party chip in words, when the draft's conversation held someone else's text. */
export function taintNote(taint: StagedDraft['taint']): string | undefined {
  if (taint === 'third_party') {
    return '⚠ Third-party content: text from someone else (mail, the web, a stranger) was in the conversation when this was written.';
  }
  if (taint === 'unknown') {
    return 'It is not known whether text from someone else was in the conversation when this was written.';
  }
  return undefined;
}

/** Where a draft is on the web board, when its address is known. */
export const boardDraftUrl = (boardUrl: string, draftId: string): string =>
  `${boardUrl}drafts#draft-${encodeURIComponent(draftId)}`;

/** What the owner reads first about a draft: what it is for and how it would go out. */
export function draftHeadline(view: DraftView): string {
  const about =
    view.goalTitle === undefined
      ? view.draft.goal === undefined
        ? 'A draft waiting on you'
        : `A draft for ${goalText(view.draft.goal)}`
      : `A draft for “${view.goalTitle}”`;
  return `${about}, to go out by ${view.draft.tool}`;
}

/**
 * A staged draft: what it is for (the goal's title), how it would go out, the third-party chip,
 * its text, then Send, Edit and Reject, or what happened in their place. A draft longer than a
 * message holds is shown cut and is never sendable from here unread: "Open on the board" takes
 * the place of Send (and of Edit, whose box could only hold part of it).
 */
export function draftMessage(
  view: DraftView,
  happened?: Happened & { readonly edited?: string | undefined },
): SlackMessage {
  const { draft } = view;
  const head = draftHeadline(view);
  const taint = taintNote(draft.taint);
  const tooLong = tooLongToEditInSlack(draft.text);
  const onBoard =
    tooLong === undefined
      ? []
      : [
          {
            type: 'context',
            elements: [
              plain(
                `Cut here: the draft is ${count(tooLong)} characters and a Slack message shows ${count(slackEditLimit)}. Read it whole, and send or edit it, on the web board (mecha web, Drafts and questions).`,
              ),
            ],
          },
        ];
  const actions =
    happened !== undefined
      ? [happenedBlock(happened)]
      : [
          {
            type: 'actions',
            block_id: `mecha_draft:${draft.draft_id}`,
            elements: [
              ...(tooLong === undefined
                ? [
                    button(actionIds.draftSend, 'Send', draft.draft_id, 'primary'),
                    button(actionIds.draftEdit, 'Edit', draft.draft_id),
                  ]
                : view.boardUrl === undefined
                  ? []
                  : [
                      {
                        type: 'button',
                        action_id: actionIds.draftOpenBoard,
                        text: plain('Open on the board'),
                        url: boardDraftUrl(view.boardUrl, draft.draft_id),
                      },
                    ]),
              button(actionIds.draftReject, 'Reject', draft.draft_id, 'danger'),
            ],
          },
        ];
  return {
    text: slackText(`${head}${happened === undefined ? '' : `: ${happened.what}`}`),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackText(head)}*` } },
      ...(taint === undefined ? [] : [{ type: 'context', elements: [plain(taint)] }]),
      ...(draft.text === undefined || draft.text === ''
        ? [{ type: 'context', elements: [plain('The draft was staged without its text.')] }]
        : [{ type: 'section', text: plainLines(draft.text) }]),
      ...onBoard,
      ...(happened?.edited === undefined
        ? []
        : [
            { type: 'context', elements: [plain('As you edited it, and as it goes out:')] },
            { type: 'section', text: plainLines(happened.edited) },
          ]),
      ...actions,
      idFooter([
        draft.draft_id,
        `session ${draft.session_id}`,
        `staged ${draft.at.replace('T', ' ').slice(0, 16)} UTC`,
      ]),
    ],
  };
}

/**
 * The modal the Reject button opens: the reason, optional, in the owner's words (it goes to
 * the reflector with the outcome, never to a score). Submitting it records the rejection.
 */
export function rejectDraftView(
  draftId: string,
  headline: string,
  reply: { readonly channel: string; readonly ts: string; readonly responseUrl?: string },
): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: rejectDraftCallbackId,
    private_metadata: JSON.stringify({ draftId, ...reply }),
    title: plain('Reject the draft', 24),
    submit: plain('Reject', 24),
    close: plain('Cancel', 24),
    blocks: [
      { type: 'section', text: plain(headline) },
      {
        type: 'input',
        block_id: 'reason',
        optional: true,
        label: plain('Why? (optional: it goes to the reflector, never to a score)'),
        element: {
          type: 'plain_text_input',
          action_id: 'text',
          multiline: true,
          max_length: 4000,
        },
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
  reply: { readonly channel: string; readonly ts: string; readonly responseUrl?: string },
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

/** A draft's outcome in words: `sent as written`, `sent with your edits`, `rejected`. */
export function outcomeWords(outcome: string): string {
  switch (outcome) {
    case 'sent_unchanged':
      return 'sent as written';
    case 'sent_edited':
      return 'sent with your edits';
    case 'rejected':
      return 'rejected';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'decided';
  }
}

/**
 * What a verdict came to, in place of the buttons: `Sent as written`, `Rejected: <reason>`
 * (its first line, cut at 200 characters), `Rejected by you` when no reason was given.
 */
export function verdictWhat(verdict: DraftVerdict, reason?: string): string {
  if (verdict.outcome === 'rejected') {
    const line = stripControl(reason?.trim().split(/\r\n|[\r\n]/u)[0] ?? '');
    if (line === '') return 'Rejected by you';
    return `Rejected: ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`;
  }
  const words = outcomeWords(verdict.outcome);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/** The private reply to a draft act that changed nothing, in words. */
export function draftUnchangedReply(refusal: OwnerActRefusal, outcome: string | undefined): string {
  if (outcome !== undefined) {
    return slackText(`This draft was already ${outcomeWords(outcome)}, so nothing changed.`);
  }
  return nothingChangedReply(refusal);
}

/** The private reply to Send on a draft too long to read in Slack: nothing was sent. */
export function sendUnreadReply(length: number): string {
  return `This draft is ${count(length)} characters and Slack shows ${count(slackEditLimit)} of it: read it whole on the web board (mecha web, Drafts and questions) and send it there. Nothing was sent.`;
}
