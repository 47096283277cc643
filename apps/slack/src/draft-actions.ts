import { stripControl } from '@mecha/appraisal-core';
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import * as E from 'fp-ts/lib/Either.js';
import {
  draftHeadline,
  draftUnchangedReply,
  editDraftView,
  rejectDraftView,
  sendUnreadReply,
  tooLongToEditInSlack,
  tooLongToEditReply,
  verdictWhat,
} from './draft-messages.js';
import {
  afterVerdict,
  decide,
  draftView,
  isOwner,
  modalOrigin,
  origin,
  refuseStranger,
  replyTo,
  type SlackActs,
  stagedDraft,
  tellPrivately,
} from './slack-acts.js';
import {
  actionIds,
  editDraftCallbackId,
  notOwnerReply,
  rejectDraftCallbackId,
} from './slack-messages.js';

/**
 * Send, Edit and Reject on a draft's message or a `/mecha drafts` row: the owner's
 * `decideDraft`, as every surface takes it. Edit and Reject open a modal first; a draft too long
 * to read whole in Slack is never sent or edited from here.
 */
export function listenToDraftActs(app: App, acts: SlackActs): void {
  listenToRejects(app, acts);
  listenToSends(app, acts);
  listenToEdits(app, acts);
}

/** Reject: the modal asking for the reason (optional), then the rejection on submit. */
function listenToRejects(app: App, acts: SlackActs): void {
  app.action<BlockAction<ButtonAction>>(
    actionIds.draftReject,
    async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(acts, body.user.id)) return refuseStranger(client, body);
      const draftId = action.value ?? '';
      const before = await stagedDraft(acts, draftId);
      if (before === undefined || before.outcome !== undefined) {
        // Nothing to ask about: the decision says why nothing changed.
        const refused = await decide(acts, draftId, 'reject');
        if (E.isLeft(refused)) {
          await tellPrivately(
            acts,
            client,
            body,
            draftUnchangedReply(refused.left, before?.outcome),
          );
        }
        return;
      }
      await client.views.open({
        trigger_id: body.trigger_id,
        view: rejectDraftView(
          draftId,
          draftHeadline(await draftView(acts, before.staged)),
          replyTo(acts, origin(body)),
        ) as never,
      });
    },
  );

  app.view(rejectDraftCallbackId, async ({ ack, body, view, client }) => {
    const from = modalOrigin(acts, view.private_metadata);
    if (!isOwner(acts, body.user.id)) {
      await ack();
      await client.chat.postEphemeral({
        channel: from.channel,
        user: body.user.id,
        text: notOwnerReply,
      });
      return;
    }
    const reason = (view.state.values.reason?.text?.value ?? '').trim();
    const decided = await decide(acts, from.draftId, 'reject', reason === '' ? {} : { reason });
    if (E.isLeft(decided) && decided.left.kind === 'bad_request') {
      await ack({
        response_action: 'errors',
        errors: { reason: stripControl(decided.left.message) },
      });
      return;
    }
    await ack();
    const after = await stagedDraft(acts, from.draftId);
    if (E.isLeft(decided)) {
      await client.chat.postEphemeral({
        channel: from.channel,
        user: body.user.id,
        text: draftUnchangedReply(decided.left, after?.outcome),
      });
      return;
    }
    if (after === undefined) return;
    await afterVerdict(acts, client, from, after.staged, {
      what: verdictWhat(decided.right, reason),
      at: acts.clock(),
    });
  });
}

/** Send: the draft as written, unless Slack could only show part of it. */
function listenToSends(app: App, acts: SlackActs): void {
  for (const [actionId, verdict] of [[actionIds.draftSend, 'send']] as const) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(acts, body.user.id)) return refuseStranger(client, body);
      const draftId = action.value ?? '';
      const before = await stagedDraft(acts, draftId);
      const tooLong = tooLongToEditInSlack(before?.staged.text);
      if (before?.outcome === undefined && tooLong !== undefined) {
        // Never sent unread: Slack showed only part of it (a message posted before this rule).
        await tellPrivately(acts, client, body, sendUnreadReply(tooLong));
        return;
      }
      const decided = await decide(acts, draftId, verdict);
      const after = await stagedDraft(acts, draftId);
      if (E.isLeft(decided)) {
        await tellPrivately(acts, client, body, draftUnchangedReply(decided.left, after?.outcome));
        return;
      }
      if (after === undefined) return;
      await afterVerdict(acts, client, origin(body), after.staged, {
        what: verdictWhat(decided.right),
        at: acts.clock(),
      });
    });
  }
  // "Open on the board" is a link: Slack opens it and tells the app, which has nothing to do.
  app.action(actionIds.draftOpenBoard, async ({ ack }) => {
    await ack();
  });
}

/** Edit: the modal holding the draft's text, then the draft sent as edited on submit. */
function listenToEdits(app: App, acts: SlackActs): void {
  app.action<BlockAction<ButtonAction>>(
    actionIds.draftEdit,
    async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(acts, body.user.id)) return refuseStranger(client, body);
      const draftId = action.value ?? '';
      const staged = (await stagedDraft(acts, draftId))?.staged;
      const from = origin(body);
      const tooLong = tooLongToEditInSlack(staged?.text);
      if (tooLong !== undefined) {
        // Never a box holding part of the draft: the owner would send it cut short.
        await tellPrivately(acts, client, body, tooLongToEditReply(draftId, tooLong));
        return;
      }
      await client.views.open({
        trigger_id: body.trigger_id,
        view: editDraftView(
          {
            draft_id: draftId,
            ...(staged?.text === undefined ? {} : { text: staged.text }),
          },
          replyTo(acts, from),
        ) as never,
      });
    },
  );

  app.view(editDraftCallbackId, async ({ ack, body, view, client }) => {
    const from = modalOrigin(acts, view.private_metadata);
    const channel = from.channel;
    if (!isOwner(acts, body.user.id)) {
      await ack();
      await client.chat.postEphemeral({ channel, user: body.user.id, text: notOwnerReply });
      return;
    }
    const draftId = from.draftId;
    const tooLong = tooLongToEditInSlack((await stagedDraft(acts, draftId))?.staged.text);
    if (tooLong !== undefined) {
      // A box opened on such a draft could only have held part of it: nothing is recorded.
      await ack({
        response_action: 'errors',
        errors: { draft: stripControl(tooLongToEditReply(draftId, tooLong)) },
      });
      return;
    }
    const decided = await decide(acts, draftId, 'send_edited', {
      text: view.state.values.draft?.text?.value ?? '',
    });
    if (E.isLeft(decided) && decided.left.kind === 'bad_request') {
      // The modal stays open with the owner's words in it, saying what to change.
      await ack({
        response_action: 'errors',
        errors: { draft: stripControl(decided.left.message) },
      });
      return;
    }
    await ack();
    const after = await stagedDraft(acts, draftId);
    if (E.isLeft(decided)) {
      await client.chat.postEphemeral({
        channel,
        user: body.user.id,
        text: draftUnchangedReply(decided.left, after?.outcome),
      });
      return;
    }
    if (after === undefined) return;
    await afterVerdict(acts, client, from, after.staged, {
      what: verdictWhat(decided.right),
      at: acts.clock(),
      edited: decided.right.text,
    });
  });
}
