import type { App } from '@slack/bolt';
import { draftList, isOwner, type SlackActs, taskList } from './slack-acts.js';
import { notOwnerReply, slackText } from './slack-messages.js';
import { parseSlash, runCharterRequest, slashHelp } from './slash-command.js';

/** `/mecha`: help, the charter, and the task and draft lists, answered privately. */
export function listenToSlashCommand(app: App, acts: SlackActs): void {
  app.command('/mecha', async ({ ack, command }) => {
    if (!isOwner(acts, command.user_id)) {
      await ack({ response_type: 'ephemeral', text: notOwnerReply });
      return;
    }
    const request = parseSlash(command.text);
    switch (request.kind) {
      case 'help':
        await ack({ response_type: 'ephemeral', text: slackText(slashHelp) });
        return;
      case 'usage':
        await ack({
          response_type: 'ephemeral',
          text: slackText(`/mecha: ${request.message} (see /mecha help)`),
        });
        return;
      case 'charter':
      case 'charter_edit':
        await ack({
          response_type: 'ephemeral',
          text: slackText(await runCharterRequest(acts.home, request, command.user_id)),
        });
        return;
      case 'tasks': {
        const list = await taskList(acts);
        await ack(
          typeof list === 'string'
            ? { response_type: 'ephemeral', text: slackText(`/mecha tasks: ${list}`) }
            : { response_type: 'ephemeral', text: list.text, blocks: list.blocks as never },
        );
        return;
      }
      case 'drafts': {
        const list = await draftList(acts);
        await ack(
          typeof list === 'string'
            ? { response_type: 'ephemeral', text: slackText(`/mecha drafts: ${list}`) }
            : { response_type: 'ephemeral', text: list.text, blocks: list.blocks as never },
        );
        return;
      }
    }
  });
}
