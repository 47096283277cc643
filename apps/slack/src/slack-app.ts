import { stripControl } from '@mecha/appraisal-core';
import {
  type DraftChoice,
  decideDraft,
  listTasks,
  type MechaHome,
  moveTask,
  registrationVariables,
} from '@mecha/stores';
import {
  App,
  type BlockAction,
  type ButtonAction,
  type Logger,
  LogLevel,
  webApi,
} from '@slack/bolt';
import { goalTitle, readHomeTitles, taskViewOf } from './goal-title.js';
import { MechaReceiver, type ReceiverLog } from './mecha-receiver.js';
import { type MessageOrigin, replaceOriginal } from './replace-original.js';
import type { SlackConfig } from './slack-config.js';
import { draftListMessage, type ListAct, taskListMessage } from './slack-lists.js';
import {
  actionIds,
  closedTaskMessage,
  closedWhat,
  type DraftView,
  draftHeadline,
  draftMessage,
  draftUnchangedReply,
  editDraftCallbackId,
  editDraftView,
  type Happened,
  notOwnerReply,
  rejectDraftCallbackId,
  rejectDraftView,
  type SlackMessage,
  type StagedDraft,
  sendUnreadReply,
  slackText,
  taskUnchangedReply,
  tooLongToEditInSlack,
  tooLongToEditReply,
  verdictWhat,
} from './slack-messages.js';
import { parseSlash, runCharterRequest, slashHelp } from './slash-command.js';
import { startErrorText } from './start-error.js';
import { type HomeWatcher, watchHome } from './watch-home.js';

/** What `startSlackApp` needs: the checked settings, the home the CLI shares, and a log. */
export interface SlackAppOptions {
  readonly config: SlackConfig;
  readonly home: MechaHome;
  readonly log: ReceiverLog;
  /** Whether the watcher looks on its own every `config.pollMs` (tests tick it by hand). */
  readonly watch?: boolean;
  /** Seconds since the epoch for the signature window; the system clock by default. */
  readonly nowSeconds?: () => number;
  /** The environment hooks run with; this process's by default (a run's registration removed). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The time an act is shown at (`Done by you · 14:02`); the system clock by default. */
  readonly clock?: () => Date;
}

/** A started app: its port (HTTP mode), the watcher, the receiver, and how to stop it. */
export interface RunningSlackApp {
  readonly app: App;
  readonly port: number | undefined;
  readonly watcher: HomeWatcher;
  readonly receiver: MechaReceiver | undefined;
  stop(): Promise<void>;
}

/**
 * Wraps a log so that no secret from the settings ever reaches it, whatever a library puts in
 * its messages: the bot token, the app token and the signing secret read as `[redacted]`.
 */
export function redactingLog(config: SlackConfig, log: ReceiverLog): ReceiverLog {
  const secrets = [config.botToken, config.appToken, config.signingSecret].filter(
    (secret): secret is string => secret !== undefined && secret !== '',
  );
  return (line) => {
    let safe = line;
    for (const secret of secrets) safe = safe.split(secret).join('[redacted]');
    log(safe);
  };
}

function boltLogger(log: ReceiverLog): Logger {
  let level = LogLevel.WARN;
  const say =
    (at: LogLevel, rank: number) =>
    (...message: unknown[]) => {
      const ranks: Record<string, number> = { debug: 0, info: 1, warn: 2, error: 3 };
      if (rank >= (ranks[level] ?? 2)) {
        log(
          `slack (${at}): ${message.map((part) => (part instanceof Error ? part.message : String(part))).join(' ')}`,
        );
      }
    };
  return {
    debug: say(LogLevel.DEBUG, 0),
    info: say(LogLevel.INFO, 1),
    warn: say(LogLevel.WARN, 2),
    error: say(LogLevel.ERROR, 3),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

/**
 * Asks Slack for a socket mode URL once before Bolt does: Bolt's client tries again for ever
 * when the answer holds no URL, so a token or an app without socket mode would loop quietly.
 */
async function checkSocketUrl(config: SlackConfig, logger: Logger): Promise<void> {
  const opener = new webApi.WebClient(config.appToken, {
    logger,
    retryConfig: { retries: 0 },
    ...(config.apiUrl === undefined ? {} : { slackApiUrl: config.apiUrl }),
  });
  let opened: { url?: string | undefined };
  try {
    opened = await opener.apps.connections.open({});
  } catch (error) {
    throw new Error(startErrorText(error, config, 'app_token'));
  }
  if (typeof opened.url !== 'string' || opened.url === '') {
    throw new Error(
      "Slack gave no socket mode URL for SLACK_APP_TOKEN (apps.connections.open): turn Socket Mode on in the app's settings, and give the token the connections:write scope",
    );
  }
}

/**
 * Starts `mecha slack`: a Bolt app whose every act goes through the owner operations of
 * `@mecha/stores` (the closure path for Done and Drop, `decideDraft` for drafts, `editCharter`
 * for `/mecha charter`), on the home the CLI uses. Only Slack users mapped to the owner act;
 * anyone else is told why and nothing is written. A Slack act is the owner's own act: it runs
 * with no run's registration, and never marks a run as attended.
 */
export async function startSlackApp(options: SlackAppOptions): Promise<RunningSlackApp> {
  const { config, home } = options;
  const log = redactingLog(config, options.log);
  const clock = options.clock ?? (() => new Date());
  const isOwner = (userId: string | undefined) =>
    userId !== undefined && config.ownerUserIds.has(userId);
  // A Slack act is the owner acting in person: whatever run's shell started `mecha slack`, its
  // registration is not passed on, so no act is recorded as a run's (`run_shell`) or refused as
  // nobody present. Hooks still get the rest of the environment (PATH and the like).
  const ownerEnv = Object.fromEntries(
    Object.entries(options.env ?? process.env).filter(
      ([name]) => !(Object.values(registrationVariables) as string[]).includes(name),
    ),
  );

  const clientOptions = config.apiUrl === undefined ? {} : { slackApiUrl: config.apiUrl };
  const receiver = config.socketMode
    ? undefined
    : new MechaReceiver({
        signingSecret: config.signingSecret,
        port: config.port,
        host: config.host,
        log,
        ...(options.nowSeconds === undefined ? {} : { nowSeconds: options.nowSeconds }),
      });
  const app = new App({
    token: config.botToken,
    deferInitialization: true,
    logger: boltLogger(log),
    clientOptions: { ...clientOptions, logger: boltLogger(log), retryConfig: { retries: 2 } },
    ...(receiver === undefined
      ? { socketMode: true, appToken: config.appToken as string }
      : { receiver }),
  });
  app.error(async (error) => {
    log(`slack: a listener failed: ${error.message}`);
  });

  /** Where a tap came from: the channel and message, or only a response URL (ephemeral). */
  const origin = (body: BlockAction) => ({
    channel: body.channel?.id ?? body.container?.channel_id,
    ts:
      body.container?.is_ephemeral === true
        ? undefined
        : (body.message?.ts ?? body.container?.message_ts),
    responseUrl: body.response_url,
  });
  const refuseStranger = async (client: webApi.WebClient, body: BlockAction): Promise<void> => {
    const channel = origin(body).channel;
    if (channel === undefined) return;
    await client.chat.postEphemeral({ channel, user: body.user.id, text: notOwnerReply });
  };
  /** What a modal carries of where it was opened: the draft, and the message to replace. */
  const modalOrigin = (metadata: string) => {
    let meta: { draftId?: unknown; channel?: unknown; ts?: unknown; responseUrl?: unknown } = {};
    try {
      meta = JSON.parse(metadata);
    } catch {
      meta = {};
    }
    return {
      draftId: typeof meta.draftId === 'string' ? meta.draftId : '',
      channel: typeof meta.channel === 'string' ? meta.channel : config.channel,
      ts: typeof meta.ts === 'string' && meta.ts !== '' ? meta.ts : undefined,
      responseUrl: typeof meta.responseUrl === 'string' ? meta.responseUrl : undefined,
    };
  };
  /** A private reply, in words, to the one who tapped: nothing posted for the channel. */
  const tellPrivately = async (
    client: webApi.WebClient,
    body: BlockAction,
    text: string,
  ): Promise<void> => {
    const channel = origin(body).channel ?? config.channel;
    await client.chat.postEphemeral({ channel, user: body.user.id, text });
  };

  for (const [actionId, to] of [
    [actionIds.taskDone, 'done'],
    [actionIds.taskDrop, 'dropped'],
  ] as const) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(body.user.id)) return refuseStranger(client, body);
      const taskId = action.value ?? '';
      // The owner's operation every surface takes (the CLI's `tasks set`, the board's Done).
      const closed = await moveTask(home, { query: taskId, to, surface: 'slack', env: ownerEnv });
      const titles = await readHomeTitles(home);
      const task = titles.tasks.get(taskId);
      const view = task === undefined ? undefined : taskViewOf(task, titles);
      if (closed.state === 'refused') {
        await tellPrivately(client, body, taskUnchangedReply(closed, task));
        return;
      }
      if (view === undefined || closed.state !== 'closed') return;
      const from = origin(body);
      const at = new Date(closed.closure.at);
      if (from.ts !== undefined) {
        await replaceOriginal(client, from, closedTaskMessage(view, closed, at));
        return;
      }
      // A row of the `/mecha tasks` list: the list is shown again, what the tap did at its top.
      const list = await taskList({ what: closedWhat(closed), at, on: view.task.title });
      await replaceOriginal(
        client,
        from,
        typeof list === 'string' ? closedTaskMessage(view, closed, at) : list,
      );
    });
  }

  const decide = async (
    draftId: string,
    verdict: DraftChoice,
    words: { readonly text?: string; readonly reason?: string } = {},
  ) =>
    decideDraft(home, {
      query: draftId,
      verdict,
      env: ownerEnv,
      ...(words.text === undefined ? {} : { text: words.text }),
      ...(words.reason === undefined ? {} : { reason: words.reason }),
    });

  /** The staged draft and its verdict, when the outbox can be read and holds it. */
  const stagedDraft = async (draftId: string) => {
    const outbox = await home.outbox.read();
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
  };
  const draftView = async (staged: StagedDraft): Promise<DraftView> => ({
    draft: staged,
    goalTitle: goalTitle(staged.goal, await readHomeTitles(home)),
    boardUrl: config.boardUrl,
  });

  /** The open tasks as `/mecha tasks` shows them, or why the board could not be read. */
  const taskList = async (act?: ListAct): Promise<SlackMessage | string> => {
    const tasks = await listTasks(home);
    if (tasks.state === 'unreadable') return `the board could not be read: ${tasks.reason}`;
    const titles = await readHomeTitles(home);
    return taskListMessage(
      tasks.tasks.map((task) => taskViewOf(task, titles)),
      act,
    );
  };
  /** The drafts waiting, staged before this process started too, or why the outbox could not be read. */
  const draftList = async (act?: ListAct): Promise<SlackMessage | string> => {
    const outbox = await home.outbox.read();
    if (outbox.state === 'unreadable') return `the outbox could not be read: ${outbox.reason}`;
    const decided = new Set(
      outbox.records.flatMap((record) => (record.type === 'outcome' ? [record.draft_id] : [])),
    );
    const titles = await readHomeTitles(home);
    return draftListMessage(
      outbox.records.flatMap((record) =>
        record.type === 'staged' && !decided.has(record.draft_id)
          ? [
              {
                draft: record,
                goalTitle: goalTitle(record.goal, titles),
                boardUrl: config.boardUrl,
              },
            ]
          : [],
      ),
      act,
    );
  };
  /** After a verdict: the draft's own message, or the whole `/mecha drafts` list it was in. */
  const afterVerdict = async (
    client: webApi.WebClient,
    from: MessageOrigin,
    staged: StagedDraft,
    happened: Happened & { readonly edited?: string | undefined },
  ) => {
    const view = await draftView(staged);
    if (from.ts !== undefined) return replaceOriginal(client, from, draftMessage(view, happened));
    const list = await draftList({ ...happened, on: draftHeadline(view) });
    return replaceOriginal(
      client,
      from,
      typeof list === 'string' ? draftMessage(view, happened) : list,
    );
  };

  /** The modal's reply address: the message it was opened from (or its list's response URL). */
  const replyTo = (from: MessageOrigin) => ({
    channel: from.channel ?? config.channel,
    ts: from.ts ?? '',
    ...(from.ts === undefined && from.responseUrl !== undefined
      ? { responseUrl: from.responseUrl }
      : {}),
  });

  app.action<BlockAction<ButtonAction>>(
    actionIds.draftReject,
    async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(body.user.id)) return refuseStranger(client, body);
      const draftId = action.value ?? '';
      const before = await stagedDraft(draftId);
      if (before === undefined || before.outcome !== undefined) {
        // Nothing to ask about: the decision says why nothing changed.
        const refused = await decide(draftId, 'reject');
        if (refused.state === 'refused') {
          await tellPrivately(client, body, draftUnchangedReply(refused, before?.outcome));
        }
        return;
      }
      await client.views.open({
        trigger_id: body.trigger_id,
        view: rejectDraftView(
          draftId,
          draftHeadline(await draftView(before.staged)),
          replyTo(origin(body)),
        ) as never,
      });
    },
  );

  app.view(rejectDraftCallbackId, async ({ ack, body, view, client }) => {
    const from = modalOrigin(view.private_metadata);
    if (!isOwner(body.user.id)) {
      await ack();
      await client.chat.postEphemeral({
        channel: from.channel,
        user: body.user.id,
        text: notOwnerReply,
      });
      return;
    }
    const reason = (view.state.values.reason?.text?.value ?? '').trim();
    const decided = await decide(from.draftId, 'reject', reason === '' ? {} : { reason });
    if (decided.state === 'refused' && decided.reason === 'bad_request') {
      await ack({ response_action: 'errors', errors: { reason: stripControl(decided.message) } });
      return;
    }
    await ack();
    const after = await stagedDraft(from.draftId);
    if (decided.state === 'refused') {
      await client.chat.postEphemeral({
        channel: from.channel,
        user: body.user.id,
        text: draftUnchangedReply(decided, after?.outcome),
      });
      return;
    }
    if (after === undefined) return;
    await afterVerdict(client, from, after.staged, {
      what: verdictWhat(decided, reason),
      at: clock(),
    });
  });

  for (const [actionId, verdict] of [[actionIds.draftSend, 'send']] as const) {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(body.user.id)) return refuseStranger(client, body);
      const draftId = action.value ?? '';
      const before = await stagedDraft(draftId);
      const tooLong = tooLongToEditInSlack(before?.staged.text);
      if (before?.outcome === undefined && tooLong !== undefined) {
        // Never sent unread: Slack showed only part of it (a message posted before this rule).
        await tellPrivately(client, body, sendUnreadReply(tooLong));
        return;
      }
      const decided = await decide(draftId, verdict);
      const after = await stagedDraft(draftId);
      if (decided.state === 'refused') {
        await tellPrivately(client, body, draftUnchangedReply(decided, after?.outcome));
        return;
      }
      if (after === undefined) return;
      await afterVerdict(client, origin(body), after.staged, {
        what: verdictWhat(decided),
        at: clock(),
      });
    });
  }
  // "Open on the board" is a link: Slack opens it and tells the app, which has nothing to do.
  app.action(actionIds.draftOpenBoard, async ({ ack }) => {
    await ack();
  });

  app.action<BlockAction<ButtonAction>>(
    actionIds.draftEdit,
    async ({ ack, body, action, client }) => {
      await ack();
      if (!isOwner(body.user.id)) return refuseStranger(client, body);
      const draftId = action.value ?? '';
      const staged = (await stagedDraft(draftId))?.staged;
      const from = origin(body);
      const tooLong = tooLongToEditInSlack(staged?.text);
      if (tooLong !== undefined) {
        // Never a box holding part of the draft: the owner would send it cut short.
        await tellPrivately(client, body, tooLongToEditReply(draftId, tooLong));
        return;
      }
      await client.views.open({
        trigger_id: body.trigger_id,
        view: editDraftView(
          {
            draft_id: draftId,
            ...(staged?.text === undefined ? {} : { text: staged.text }),
          },
          replyTo(from),
        ) as never,
      });
    },
  );

  app.view(editDraftCallbackId, async ({ ack, body, view, client }) => {
    const from = modalOrigin(view.private_metadata);
    const channel = from.channel;
    if (!isOwner(body.user.id)) {
      await ack();
      await client.chat.postEphemeral({ channel, user: body.user.id, text: notOwnerReply });
      return;
    }
    const draftId = from.draftId;
    const tooLong = tooLongToEditInSlack((await stagedDraft(draftId))?.staged.text);
    if (tooLong !== undefined) {
      // A box opened on such a draft could only have held part of it: nothing is recorded.
      await ack({
        response_action: 'errors',
        errors: { draft: stripControl(tooLongToEditReply(draftId, tooLong)) },
      });
      return;
    }
    const decided = await decide(draftId, 'send_edited', {
      text: view.state.values.draft?.text?.value ?? '',
    });
    if (decided.state === 'refused' && decided.reason === 'bad_request') {
      // The modal stays open with the owner's words in it, saying what to change.
      await ack({ response_action: 'errors', errors: { draft: stripControl(decided.message) } });
      return;
    }
    await ack();
    const after = await stagedDraft(draftId);
    if (decided.state === 'refused') {
      await client.chat.postEphemeral({
        channel,
        user: body.user.id,
        text: draftUnchangedReply(decided, after?.outcome),
      });
      return;
    }
    if (after === undefined) return;
    await afterVerdict(client, from, after.staged, {
      what: verdictWhat(decided),
      at: clock(),
      edited: decided.text,
    });
  });

  app.command('/mecha', async ({ ack, command }) => {
    if (!isOwner(command.user_id)) {
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
          text: slackText(await runCharterRequest(home, request, command.user_id)),
        });
        return;
      case 'tasks': {
        const list = await taskList();
        await ack(
          typeof list === 'string'
            ? { response_type: 'ephemeral', text: slackText(`/mecha tasks: ${list}`) }
            : { response_type: 'ephemeral', text: list.text, blocks: list.blocks as never },
        );
        return;
      }
      case 'drafts': {
        const list = await draftList();
        await ack(
          typeof list === 'string'
            ? { response_type: 'ephemeral', text: slackText(`/mecha drafts: ${list}`) }
            : { response_type: 'ephemeral', text: list.text, blocks: list.blocks as never },
        );
        return;
      }
    }
  });

  let port: number | undefined;
  try {
    await app.init();
  } catch (error) {
    throw new Error(startErrorText(error, config, 'bot_token'));
  }
  if (receiver === undefined) {
    await checkSocketUrl(config, boltLogger(log));
    await app.start();
  } else {
    try {
      port = await receiver.start();
    } catch (error) {
      throw new Error(startErrorText(error, config, 'listen'));
    }
  }
  const watcher = watchHome({
    home,
    client: app.client,
    channel: config.channel,
    log,
    clock,
    boardUrl: config.boardUrl,
    // Said on stderr by the watcher; the owner is told by DM too when the token still works
    // (a DM is a post to the owner's user id: the app's Messages tab, with chat:write alone).
    onHalt: async (line, failure) => {
      if (failure.variable !== 'MECHA_SLACK_CHANNEL') return;
      for (const user of config.ownerUserIds) {
        await app.client.chat.postMessage({ channel: user, text: `mecha slack: ${line}` });
      }
    },
  });
  if (options.watch !== false) watcher.start(config.pollMs);
  return {
    app,
    port,
    watcher,
    receiver,
    async stop() {
      await watcher.stop();
      if (receiver === undefined) await app.stop();
      else await receiver.stop();
    },
  };
}
