import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { slackConfigFromEnv } from './slack-config.js';

const good = {
  SLACK_SIGNING_SECRET: '0123456789abcdef0123456789abcdef',
  SLACK_BOT_TOKEN: 'xoxb-1-2-abc',
  MECHA_SLACK_OWNERS: 'U0OWNER1, W0OWNER2',
  MECHA_SLACK_CHANNEL: 'C0CHANNEL',
};

const variables = (env: Record<string, string | undefined>) => {
  const read = slackConfigFromEnv(env);
  return E.isLeft(read) ? read.left.map((issue) => issue.variable) : [];
};

describe('slackConfigFromEnv', () => {
  it('reads the settings with their defaults', () => {
    const read = slackConfigFromEnv(good);
    expect(E.isRight(read) && read.right).toMatchObject({
      ownerUserIds: new Set(['U0OWNER1', 'W0OWNER2']),
      channel: 'C0CHANNEL',
      port: 3000,
      host: '127.0.0.1',
      socketMode: false,
      apiUrl: undefined,
      pollMs: 2000,
    });
  });

  it('names each missing setting', () => {
    expect(variables({})).toEqual([
      'SLACK_SIGNING_SECRET',
      'SLACK_BOT_TOKEN',
      'MECHA_SLACK_OWNERS',
      'MECHA_SLACK_CHANNEL',
    ]);
  });

  it('names each malformed setting, and never repeats a secret', () => {
    const env = {
      ...good,
      SLACK_SIGNING_SECRET: 'not-hex-SECRET1',
      SLACK_BOT_TOKEN: 'xoxp-SECRET2',
      MECHA_SLACK_OWNERS: 'U0OWNER1,@sam',
      MECHA_SLACK_CHANNEL: '#general',
      MECHA_SLACK_PORT: '70000',
      MECHA_SLACK_SOCKET_MODE: 'yes',
      SLACK_APP_TOKEN: 'xoxb-SECRET3',
      MECHA_SLACK_API_URL: 'ftp://example',
    };
    expect(variables(env)).toEqual([
      'SLACK_SIGNING_SECRET',
      'SLACK_BOT_TOKEN',
      'MECHA_SLACK_OWNERS',
      'MECHA_SLACK_CHANNEL',
      'MECHA_SLACK_PORT',
      'MECHA_SLACK_SOCKET_MODE',
      'SLACK_APP_TOKEN',
      'MECHA_SLACK_API_URL',
    ]);
    const read = slackConfigFromEnv(env);
    expect(JSON.stringify(read)).not.toMatch(/SECRET\d/);
  });

  it('needs an app token for socket mode', () => {
    expect(variables({ ...good, MECHA_SLACK_SOCKET_MODE: '1' })).toEqual(['SLACK_APP_TOKEN']);
    const read = slackConfigFromEnv({
      ...good,
      MECHA_SLACK_SOCKET_MODE: '1',
      SLACK_APP_TOKEN: 'xapp-1-A',
    });
    expect(E.isRight(read) && read.right.socketMode).toBe(true);
  });
});
