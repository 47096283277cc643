import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactingLog } from './slack-app.js';
import type { SlackConfig } from './slack-config.js';
import { slackText } from './slack-messages.js';

describe('slackText', () => {
  it('escapes what Slack would read as a mention, a link or a broadcast', () => {
    expect(slackText('<!channel> & <@U1|x> <http://evil|click>')).toBe(
      '&lt;!channel&gt; &amp; &lt;@U1|x&gt; &lt;http://evil|click&gt;',
    );
  });

  it('never leaves a raw < or > and keeps line breaks, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = slackText(text);
        expect(out).not.toMatch(/[<>]/);
        expect(out.split('\n')).toHaveLength(text.split('\n').length);
      }),
    );
  });
});

describe('redactingLog', () => {
  it('takes every secret out of what is logged', () => {
    const lines: string[] = [];
    const log = redactingLog(
      {
        botToken: 'xoxb-1-TOKEN',
        appToken: 'xapp-1-APP',
        signingSecret: 'abcdef0123456789',
      } as SlackConfig,
      (line) => lines.push(line),
    );
    log('failed with xoxb-1-TOKEN and xapp-1-APP, secret abcdef0123456789, twice xoxb-1-TOKEN');
    expect(lines).toEqual([
      'failed with [redacted] and [redacted], secret [redacted], twice [redacted]',
    ]);
  });
});
