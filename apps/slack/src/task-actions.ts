import { moveTask } from '@mecha/stores';
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import * as E from 'fp-ts/lib/Either.js';
import { readHomeTitles, taskViewOf } from './goal-title.js';
import { replaceOriginal } from './replace-original.js';
import {
  isOwner,
  origin,
  refuseStranger,
  type SlackActs,
  taskList,
  tellPrivately,
} from './slack-acts.js';
import { actionIds } from './slack-messages.js';
import { closedTaskMessage, closedWhat, taskUnchangedReply } from './task-messages.js';

/**
 * Done and Drop on a task's message or a `/mecha tasks` row: the owner's `moveTask`, as every
 * surface takes it, then the message (or the list) shown again with what the tap did.
 */
export function listenToTaskActs(app: App, acts: SlackActs): void {
  for (const [actionId, to] of [
    [actionIds.taskDone, 'done'],
    [actionIds.taskDrop, 'dropped'],
  ] as const) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(acts, body.user.id)) return refuseStranger(client, body);
      const taskId = action.value ?? '';
      // The owner's operation every surface takes (the CLI's `tasks set`, the board's Done).
      const moved = await moveTask(acts.home, {
        query: taskId,
        to,
        surface: 'slack',
        env: acts.ownerEnv,
      });
      const titles = await readHomeTitles(acts.home);
      const task = titles.tasks.get(taskId);
      const view = task === undefined ? undefined : taskViewOf(task, titles);
      if (E.isLeft(moved)) {
        await tellPrivately(acts, client, body, taskUnchangedReply(moved.left, task));
        return;
      }
      const closed = moved.right;
      if (view === undefined || closed.state !== 'closed') return;
      const from = origin(body);
      const at = new Date(closed.closure.at);
      if (from.ts !== undefined) {
        await replaceOriginal(client, from, closedTaskMessage(view, closed, at));
        return;
      }
      // A row of the `/mecha tasks` list: the list is shown again, what the tap did at its top.
      const list = await taskList(acts, { what: closedWhat(closed), at, on: view.task.title });
      await replaceOriginal(
        client,
        from,
        typeof list === 'string' ? closedTaskMessage(view, closed, at) : list,
      );
    });
  }
}
