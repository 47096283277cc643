import {
  type DraftChoice,
  decideDraft,
  listTasks,
  type MechaHome,
  registrationVariables,
} from '@mecha/stores';
import type { BlockAction, webApi } from '@slack/bolt';
import { type DraftView, draftHeadline, draftMessage, type StagedDraft } from './draft-messages.js';
import { goalTitle, readHomeTitles, taskViewOf } from './goal-title.js';
import { type MessageOrigin, replaceOriginal } from './replace-original.js';
import type { SlackConfig } from './slack-config.js';
import { draftListMessage, type ListAct, taskListMessage } from './slack-lists.js';
import { type Happened, notOwnerReply, type SlackMessage } from './slack-messages.js';

/** What every listener of the app acts with: the settings, the home, the clock and the owner. */
export interface SlackActs {
  readonly config: SlackConfig;
  readonly home: MechaHome;
  /** The time an act is shown at. */
  readonly clock: () => Date;
  /** The environment hooks run with: this process's, a run's registration removed. */
  readonly ownerEnv: Readonly<Record<string, string | undefined>>;
}

/** The acts' context for `startSlackApp`'s options. */
export function slackActs(
  config: SlackConfig,
  home: MechaHome,
  clock: () => Date,
  env: Readonly<Record<string, string | undefined>>,
): SlackActs {
  // A Slack act is the owner acting in person: whatever run's shell started `mecha slack`, its
  // registration is not passed on, so no act is recorded as a run's (`run_shell`) or refused as
  // nobody present. Hooks still get the rest of the environment (PATH and the like).
  const ownerEnv = Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !(Object.values(registrationVariables) as string[]).includes(name),
    ),
  );
  return { config, home, clock, ownerEnv };
}

/** Whether a Slack user is mapped to the owner (only they act). */
export const isOwner = (acts: SlackActs, userId: string | undefined): boolean =>
  userId !== undefined && acts.config.ownerUserIds.has(userId);

/** Where a tap came from: the channel and message, or only a response URL (ephemeral). */
export const origin = (body: BlockAction) => ({
  channel: body.channel?.id ?? body.container?.channel_id,
  ts:
    body.container?.is_ephemeral === true
      ? undefined
      : (body.message?.ts ?? body.container?.message_ts),
  responseUrl: body.response_url,
});

/** Tells a Slack user not mapped to the owner why nothing happened. */
export async function refuseStranger(client: webApi.WebClient, body: BlockAction): Promise<void> {
  const channel = origin(body).channel;
  if (channel === undefined) return;
  await client.chat.postEphemeral({ channel, user: body.user.id, text: notOwnerReply });
}

/** What a modal carries of where it was opened: the draft, and the message to replace. */
export function modalOrigin(acts: SlackActs, metadata: string) {
  let meta: { draftId?: unknown; channel?: unknown; ts?: unknown; responseUrl?: unknown } = {};
  try {
    meta = JSON.parse(metadata);
  } catch {
    meta = {};
  }
  return {
    draftId: typeof meta.draftId === 'string' ? meta.draftId : '',
    channel: typeof meta.channel === 'string' ? meta.channel : acts.config.channel,
    ts: typeof meta.ts === 'string' && meta.ts !== '' ? meta.ts : undefined,
    responseUrl: typeof meta.responseUrl === 'string' ? meta.responseUrl : undefined,
  };
}

/** The modal's reply address: the message it was opened from (or its list's response URL). */
export const replyTo = (acts: SlackActs, from: MessageOrigin) => ({
  channel: from.channel ?? acts.config.channel,
  ts: from.ts ?? '',
  ...(from.ts === undefined && from.responseUrl !== undefined
    ? { responseUrl: from.responseUrl }
    : {}),
});

/** A private reply, in words, to the one who tapped: nothing posted for the channel. */
export async function tellPrivately(
  acts: SlackActs,
  client: webApi.WebClient,
  body: BlockAction,
  text: string,
): Promise<void> {
  const channel = origin(body).channel ?? acts.config.channel;
  await client.chat.postEphemeral({ channel, user: body.user.id, text });
}

/** The owner's verdict on a draft, through `decideDraft` as every surface takes it. */
export const decide = async (
  acts: SlackActs,
  draftId: string,
  verdict: DraftChoice,
  words: { readonly text?: string; readonly reason?: string } = {},
) =>
  decideDraft(acts.home, {
    query: draftId,
    verdict,
    env: acts.ownerEnv,
    ...(words.text === undefined ? {} : { text: words.text }),
    ...(words.reason === undefined ? {} : { reason: words.reason }),
  });

/** The staged draft and its verdict, when the outbox can be read and holds it. */
export async function stagedDraft(acts: SlackActs, draftId: string) {
  const outbox = await acts.home.outbox.read();
  if (outbox.state === 'unreadable') return undefined;
  const staged = outbox.records.find(
    (record) => record.type === 'staged' && record.draft_id === draftId,
  );
  const outcome = outbox.records.find(
    (record) => record.type === 'outcome' && record.draft_id === draftId,
  );
  return staged?.type === 'staged'
    ? { staged, outcome: outcome?.type === 'outcome' ? outcome.outcome : undefined }
    : undefined;
}

/** A staged draft with its goal's title and the board's address. */
export const draftView = async (acts: SlackActs, staged: StagedDraft): Promise<DraftView> => ({
  draft: staged,
  goalTitle: goalTitle(staged.goal, await readHomeTitles(acts.home)),
  boardUrl: acts.config.boardUrl,
});

/** The open tasks as `/mecha tasks` shows them, or why the board could not be read. */
export async function taskList(acts: SlackActs, act?: ListAct): Promise<SlackMessage | string> {
  const tasks = await listTasks(acts.home);
  if (tasks.state === 'unreadable') return `the board could not be read: ${tasks.reason}`;
  const titles = await readHomeTitles(acts.home);
  return taskListMessage(
    tasks.tasks.map((task) => taskViewOf(task, titles)),
    act,
  );
}

/** The drafts waiting, staged before this process started too, or why the outbox could not be read. */
export async function draftList(acts: SlackActs, act?: ListAct): Promise<SlackMessage | string> {
  const outbox = await acts.home.outbox.read();
  if (outbox.state === 'unreadable') return `the outbox could not be read: ${outbox.reason}`;
  const decided = new Set(
    outbox.records.flatMap((record) => (record.type === 'outcome' ? [record.draft_id] : [])),
  );
  const titles = await readHomeTitles(acts.home);
  return draftListMessage(
    outbox.records.flatMap((record) =>
      record.type === 'staged' && !decided.has(record.draft_id)
        ? [
            {
              draft: record,
              goalTitle: goalTitle(record.goal, titles),
              boardUrl: acts.config.boardUrl,
            },
          ]
        : [],
    ),
    act,
  );
}

/** After a verdict: the draft's own message, or the whole `/mecha drafts` list it was in. */
export async function afterVerdict(
  acts: SlackActs,
  client: webApi.WebClient,
  from: MessageOrigin,
  staged: StagedDraft,
  happened: Happened & { readonly edited?: string | undefined },
) {
  const view = await draftView(acts, staged);
  if (from.ts !== undefined) return replaceOriginal(client, from, draftMessage(view, happened));
  const list = await draftList(acts, { ...happened, on: draftHeadline(view) });
  return replaceOriginal(
    client,
    from,
    typeof list === 'string' ? draftMessage(view, happened) : list,
  );
}
