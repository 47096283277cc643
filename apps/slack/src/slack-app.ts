import type { MechaHome } from '@mecha/stores';
import { App, type Logger, LogLevel, webApi } from '@slack/bolt';
import { listenToDraftActs } from './draft-actions.js';
import { MechaReceiver, type ReceiverLog } from './mecha-receiver.js';
import { slackActs } from './slack-acts.js';
import type { SlackConfig } from './slack-config.js';
import { listenToSlashCommand } from './slash-listener.js';
import { startErrorText } from './start-error.js';
import { listenToTaskActs } from './task-actions.js';
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
  const acts = slackActs(config, home, clock, options.env ?? process.env);

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

  listenToTaskActs(app, acts);
  listenToDraftActs(app, acts);
  listenToSlashCommand(app, acts);

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
