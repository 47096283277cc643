/** How the watcher spaces its tries at one post: doubling from `firstMs`, never past `mostMs`. */
export interface RetryPolicy {
  readonly firstMs: number;
  readonly mostMs: number;
}

/** Two seconds, then 4, 8, 16 …, at most fifteen minutes apart: five tries in a minute. */
export const watcherRetry: RetryPolicy = { firstMs: 2_000, mostMs: 15 * 60_000 };

/**
 * How long to wait after the `failures`-th failed try at one post before the next: the first
 * wait is `firstMs`, each later one twice the one before, none longer than `mostMs`.
 */
export function retryDelayMs(failures: number, policy: RetryPolicy = watcherRetry): number {
  if (!(failures >= 1)) return 0;
  const doublings = Math.min(failures - 1, 40);
  return Math.min(policy.firstMs * 2 ** doublings, policy.mostMs);
}

/** A Slack error that waiting will not fix, and the setting the owner has to change. */
export interface StandingSlackError {
  readonly code: string;
  readonly variable: 'MECHA_SLACK_CHANNEL' | 'SLACK_BOT_TOKEN';
  /** What to do, in words, after `<variable>`. */
  readonly fix: string;
}

const standing: Readonly<Record<string, Omit<StandingSlackError, 'code'>>> = {
  channel_not_found: {
    variable: 'MECHA_SLACK_CHANNEL',
    fix: 'names no channel the bot can see: set it to the channel id (C0…) from the channel details',
  },
  not_in_channel: {
    variable: 'MECHA_SLACK_CHANNEL',
    fix: 'is a channel the bot is not in: invite it there (/invite @mecha)',
  },
  is_archived: {
    variable: 'MECHA_SLACK_CHANNEL',
    fix: 'is an archived channel: unarchive it or name another',
  },
  invalid_auth: {
    variable: 'SLACK_BOT_TOKEN',
    fix: 'is not accepted by Slack: copy the Bot User OAuth Token again (OAuth & Permissions)',
  },
  account_inactive: {
    variable: 'SLACK_BOT_TOKEN',
    fix: 'belongs to a bot or workspace that is no longer active: reinstall the app and copy its token',
  },
  token_revoked: {
    variable: 'SLACK_BOT_TOKEN',
    fix: 'was revoked: reinstall the app and copy its new Bot User OAuth Token',
  },
  not_authed: {
    variable: 'SLACK_BOT_TOKEN',
    fix: 'was not sent: set it to the Bot User OAuth Token (xoxb-…)',
  },
};

/** The Slack error code a Web API failure carries (`channel_not_found`), if any. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  if (typeof data?.error === 'string') return data.error;
  const message = error instanceof Error ? error.message : String(error);
  return /An API error occurred: ([a-z_]+)/.exec(message)?.[1];
}

/** The error, when it is one that will not fix itself, with the setting to change. */
export function standingSlackError(error: unknown): StandingSlackError | undefined {
  const code = slackErrorCode(error);
  const known = code === undefined ? undefined : standing[code];
  return code === undefined || known === undefined ? undefined : { code, ...known };
}

/** The one line that says which setting to fix: `MECHA_SLACK_CHANNEL C0… names no channel …`. */
export function standingErrorLine(failure: StandingSlackError, channel: string): string {
  const value = failure.variable === 'MECHA_SLACK_CHANNEL' ? ` ${channel}` : '';
  return `Slack refused to post (${failure.code}): ${failure.variable}${value} ${failure.fix}. Nothing more is posted until mecha slack is restarted with it fixed.`;
}
