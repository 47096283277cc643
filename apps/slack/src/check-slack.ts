import { type Either, left, type Refusal, right } from '@mecha/errors';
import { type Logger, webApi } from '@slack/bolt';
import { slackErrorCode } from './retry-policy.js';
import type { SlackConfig } from './slack-config.js';
import { startErrorText } from './start-error.js';

/** What `mecha slack --check` found when `mecha slack` can run: each line to print. */
export interface SlackCheckPassed {
  readonly lines: readonly string[];
}

/**
 * Why `mecha slack` cannot run: Slack refused the token or the channel (`rejected`), or could
 * not be asked (`unreachable`); `message` is the line that says what to fix, and `lines` are
 * every line to print, what was found to work first.
 */
export interface SlackCheckFailed extends Refusal<'rejected' | 'unreachable'> {
  readonly lines: readonly string[];
}

/** What `mecha slack --check` found. */
export type SlackCheck = Either<SlackCheckFailed, SlackCheckPassed>;

function failed(
  kind: SlackCheckFailed['kind'],
  found: readonly string[],
  message: string,
): SlackCheck {
  return left({ kind, message, lines: [...found, message] });
}

const quiet: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => 'error' as never,
  setName: () => {},
};

/**
 * Asks Slack what `mecha slack` would need: `auth.test` (is `SLACK_BOT_TOKEN` accepted, and
 * whose is it) and `conversations.info` on `MECHA_SLACK_CHANNEL` (does it exist, and is the bot
 * in it). Nothing is posted. A check that cannot be made (a scope the token lacks) is said,
 * and does not fail the check on its own.
 */
export async function checkSlack(config: SlackConfig): Promise<SlackCheck> {
  const client = new webApi.WebClient(config.botToken, {
    logger: quiet,
    retryConfig: { retries: 0 },
    ...(config.apiUrl === undefined ? {} : { slackApiUrl: config.apiUrl }),
  });
  const lines: string[] = [];
  let auth: { user?: string | undefined; team?: string | undefined };
  try {
    auth = await client.auth.test();
  } catch (error) {
    // An answer from Slack (a code such as invalid_auth) is a refusal; no answer, unreachable.
    const kind = slackErrorCode(error) === undefined ? 'unreachable' : 'rejected';
    return failed(kind, [], startErrorText(error, config, 'bot_token'));
  }
  lines.push(
    `SLACK_BOT_TOKEN is accepted: the bot ${auth.user ?? '(unnamed)'}${auth.team === undefined ? '' : ` in ${auth.team}`}.`,
  );
  try {
    const info = await client.conversations.info({ channel: config.channel });
    const name = info.channel?.name === undefined ? '' : ` (#${info.channel.name})`;
    if (info.channel?.is_member === false) {
      return failed(
        'rejected',
        lines,
        `MECHA_SLACK_CHANNEL ${config.channel}${name} is a channel the bot is not in: invite it there (/invite @mecha).`,
      );
    }
    lines.push(`MECHA_SLACK_CHANNEL ${config.channel}${name}: the bot is in it.`);
  } catch (error) {
    const code = slackErrorCode(error);
    if (code === 'channel_not_found') {
      return failed(
        'rejected',
        lines,
        `MECHA_SLACK_CHANNEL ${config.channel} names no channel the bot can see: set it to the channel id (C0…) from the channel details.`,
      );
    }
    if (code === 'missing_scope') {
      lines.push(
        `MECHA_SLACK_CHANNEL ${config.channel}: not checked, the token lacks channels:read (groups:read for a private channel).`,
      );
    } else {
      return failed(
        'unreachable',
        lines,
        `MECHA_SLACK_CHANNEL ${config.channel} could not be checked: ${code ?? (error as Error).message}`,
      );
    }
  }
  return right({ lines });
}
