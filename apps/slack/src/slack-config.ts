import * as E from 'fp-ts/lib/Either.js';

/** Everything `mecha slack` reads from its environment, checked. */
export interface SlackConfig {
  /** Verifies that a request came from Slack (`SLACK_SIGNING_SECRET`). */
  readonly signingSecret: string;
  /** The bot token the Web API calls carry (`SLACK_BOT_TOKEN`); never logged. */
  readonly botToken: string;
  /** The Slack user ids that act as the owner (`MECHA_SLACK_OWNERS`). */
  readonly ownerUserIds: ReadonlySet<string>;
  /** Where run-end lines and drafts are posted (`MECHA_SLACK_CHANNEL`). */
  readonly channel: string;
  /** The HTTP receiver's port and address (`MECHA_SLACK_PORT`, `MECHA_SLACK_HOST`). */
  readonly port: number;
  readonly host: string;
  /** Socket mode instead of the HTTP receiver (`MECHA_SLACK_SOCKET_MODE=1` + `SLACK_APP_TOKEN`). */
  readonly socketMode: boolean;
  readonly appToken: string | undefined;
  /** The Web API's base URL (`MECHA_SLACK_API_URL`); Slack's own when unset. */
  readonly apiUrl: string | undefined;
  /** The web board's address (`MECHA_SLACK_BOARD_URL`), for "Open on the board"; none when unset. */
  readonly boardUrl: string | undefined;
  /** How often the watcher looks for finished runs and staged drafts (`MECHA_SLACK_POLL_MS`). */
  readonly pollMs: number;
}

/** One setting that is missing or malformed: the variable, and what it must hold. */
export interface SlackConfigIssue {
  readonly variable: string;
  readonly message: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const userId = /^[UW][A-Z0-9]{2,20}$/;
const channelId = /^[CGD][A-Z0-9]{2,20}$/;

/**
 * Reads the Slack settings from the environment and reports every missing or malformed one,
 * each naming its variable. A secret's value is never repeated in a message.
 */
export function slackConfigFromEnv(env: Env): E.Either<readonly SlackConfigIssue[], SlackConfig> {
  const issues: SlackConfigIssue[] = [];
  const issue = (variable: string, message: string) => issues.push({ variable, message });
  const given = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const signingSecret = given('SLACK_SIGNING_SECRET');
  if (signingSecret === undefined) {
    issue('SLACK_SIGNING_SECRET', "is not set: copy the app's Signing Secret (Basic Information)");
  } else if (!/^[0-9a-f]{16,128}$/i.test(signingSecret)) {
    issue('SLACK_SIGNING_SECRET', 'is not a signing secret (hex digits, as Slack shows it)');
  }

  const botToken = given('SLACK_BOT_TOKEN');
  if (botToken === undefined) {
    issue('SLACK_BOT_TOKEN', 'is not set: copy the Bot User OAuth Token (OAuth & Permissions)');
  } else if (!/^xoxb-[A-Za-z0-9-]+$/.test(botToken)) {
    issue('SLACK_BOT_TOKEN', 'is not a bot token (one starts with xoxb-)');
  }

  const owners = given('MECHA_SLACK_OWNERS');
  const ownerUserIds = new Set<string>();
  if (owners === undefined) {
    issue(
      'MECHA_SLACK_OWNERS',
      'is not set: name the Slack user ids that act as the owner, comma-separated (U0123ABCD)',
    );
  } else {
    for (const part of owners.split(',').map((word) => word.trim())) {
      if (userId.test(part)) ownerUserIds.add(part);
      else {
        issue(
          'MECHA_SLACK_OWNERS',
          `${JSON.stringify(part)} is not a Slack user id (one looks like U0123ABCD)`,
        );
      }
    }
  }

  const channel = given('MECHA_SLACK_CHANNEL');
  if (channel === undefined) {
    issue('MECHA_SLACK_CHANNEL', 'is not set: name the channel id to post in (C0123ABCD)');
  } else if (!channelId.test(channel)) {
    issue(
      'MECHA_SLACK_CHANNEL',
      `${JSON.stringify(channel)} is not a channel id (one looks like C0123ABCD; a #name will not do)`,
    );
  }

  const whole = (name: string, fallback: number, min: number, max: number): number => {
    const text = given(name);
    if (text === undefined) return fallback;
    const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= min && value <= max)) {
      issue(name, `takes a whole number from ${min} to ${max}, not ${JSON.stringify(text)}`);
      return fallback;
    }
    return value;
  };
  const port = whole('MECHA_SLACK_PORT', 3000, 0, 65535);
  const pollMs = whole('MECHA_SLACK_POLL_MS', 2000, 100, 3_600_000);
  const host = given('MECHA_SLACK_HOST') ?? '127.0.0.1';

  const socketText = given('MECHA_SLACK_SOCKET_MODE');
  let socketMode = false;
  if (socketText !== undefined) {
    if (socketText === '1' || socketText === 'true') socketMode = true;
    else if (socketText !== '0' && socketText !== 'false') {
      issue('MECHA_SLACK_SOCKET_MODE', `takes 1 or 0, not ${JSON.stringify(socketText)}`);
    }
  }
  const appToken = given('SLACK_APP_TOKEN');
  if (socketMode && appToken === undefined) {
    issue('SLACK_APP_TOKEN', 'is not set: socket mode needs an app-level token (xapp-…)');
  } else if (appToken !== undefined && !/^xapp-[A-Za-z0-9-]+$/.test(appToken)) {
    issue('SLACK_APP_TOKEN', 'is not an app-level token (one starts with xapp-)');
  }

  const httpUrl = (text: string): boolean => {
    try {
      const url = new URL(text);
      return (url.protocol === 'http:' || url.protocol === 'https:') && text.endsWith('/');
    } catch {
      return false;
    }
  };
  const apiUrl = given('MECHA_SLACK_API_URL');
  if (apiUrl !== undefined && !httpUrl(apiUrl)) {
    issue(
      'MECHA_SLACK_API_URL',
      `${JSON.stringify(apiUrl)} is not an http(s) URL ending in / (Slack's is https://slack.com/api/)`,
    );
  }
  const boardUrl = given('MECHA_SLACK_BOARD_URL');
  if (boardUrl !== undefined && !httpUrl(boardUrl)) {
    issue(
      'MECHA_SLACK_BOARD_URL',
      `${JSON.stringify(boardUrl)} is not an http(s) URL ending in / (the address mecha web prints, such as http://127.0.0.1:3100/)`,
    );
  }

  if (issues.length > 0) return E.left(issues);
  return E.right({
    signingSecret: signingSecret as string,
    botToken: botToken as string,
    ownerUserIds,
    channel: channel as string,
    port,
    host,
    socketMode,
    appToken,
    apiUrl,
    boardUrl,
    pollMs,
  });
}
