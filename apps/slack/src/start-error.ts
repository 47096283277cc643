import { slackErrorCode, standingSlackError } from './retry-policy.js';
import type { SlackConfig } from './slack-config.js';

/**
 * Why `mecha slack` could not start, naming the setting to change: a token Slack refused
 * (`SLACK_BOT_TOKEN`, `SLACK_APP_TOKEN`), a port in use or not allowed (`MECHA_SLACK_PORT`), an
 * address that is not this machine's (`MECHA_SLACK_HOST`). Anything else is said as it came.
 */
export function startErrorText(
  error: unknown,
  config: Pick<SlackConfig, 'port' | 'host'>,
  during: 'bot_token' | 'app_token' | 'listen',
): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (during === 'listen') {
    if (code === 'EADDRINUSE') {
      return `MECHA_SLACK_PORT ${config.port} is already in use on ${config.host}: stop what holds it, or set MECHA_SLACK_PORT to a free port (0 picks one)`;
    }
    if (code === 'EACCES') {
      return `MECHA_SLACK_PORT ${config.port} may not be opened by this user (ports below 1024 need privileges): set MECHA_SLACK_PORT to 1024 or above`;
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      return `MECHA_SLACK_HOST ${config.host} is not an address of this machine: use 127.0.0.1 behind a tunnel`;
    }
    return `the receiver could not listen on ${config.host}:${config.port}: ${message}`;
  }
  const slackCode = slackErrorCode(error);
  const variable = during === 'app_token' ? 'SLACK_APP_TOKEN' : 'SLACK_BOT_TOKEN';
  const standing = standingSlackError(error);
  if (standing?.variable === 'SLACK_BOT_TOKEN') {
    return `${variable} ${standing.fix.replace('Bot User OAuth Token', during === 'app_token' ? 'app-level token' : 'Bot User OAuth Token')} (Slack answered ${standing.code})`;
  }
  if (slackCode !== undefined) return `Slack refused ${variable} (${slackCode})`;
  return `Slack could not be reached to check ${variable}: ${message}`;
}
