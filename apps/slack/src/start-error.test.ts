import { describe, expect, it } from 'vitest';
import { startErrorText } from './start-error.js';

const config = { port: 3000, host: '127.0.0.1' };
const slackFailure = (code: string) =>
  Object.assign(new Error(`An API error occurred: ${code}`), { data: { ok: false, error: code } });
const listenFailure = (code: string) =>
  Object.assign(new Error(`listen ${code}: 127.0.0.1:3000`), { code });

describe('startErrorText', () => {
  it('names the variable to fix for each failure a start can meet', () => {
    expect(startErrorText(slackFailure('invalid_auth'), config, 'bot_token')).toBe(
      'SLACK_BOT_TOKEN is not accepted by Slack: copy the Bot User OAuth Token again (OAuth & Permissions) (Slack answered invalid_auth)',
    );
    expect(startErrorText(slackFailure('account_inactive'), config, 'bot_token')).toMatch(
      /^SLACK_BOT_TOKEN belongs to a bot or workspace that is no longer active/,
    );
    expect(startErrorText(slackFailure('invalid_auth'), config, 'app_token')).toMatch(
      /^SLACK_APP_TOKEN is not accepted by Slack: copy the app-level token again/,
    );
    expect(startErrorText(listenFailure('EADDRINUSE'), config, 'listen')).toBe(
      'MECHA_SLACK_PORT 3000 is already in use on 127.0.0.1: stop what holds it, or set MECHA_SLACK_PORT to a free port (0 picks one)',
    );
    expect(startErrorText(listenFailure('EACCES'), config, 'listen')).toMatch(
      /^MECHA_SLACK_PORT 3000 /,
    );
    expect(startErrorText(listenFailure('EADDRNOTAVAIL'), config, 'listen')).toMatch(
      /^MECHA_SLACK_HOST 127\.0\.0\.1 /,
    );
    expect(startErrorText(new Error('connect ECONNREFUSED'), config, 'bot_token')).toBe(
      'Slack could not be reached to check SLACK_BOT_TOKEN: connect ECONNREFUSED',
    );
  });
});
