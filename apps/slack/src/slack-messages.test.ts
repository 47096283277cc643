import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftMessage } from './draft-messages.js';
import { redactingLog } from './slack-app.js';
import type { SlackConfig } from './slack-config.js';
import { actionIds, slackText, slackTime } from './slack-messages.js';
import { taskMessage } from './task-messages.js';

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

describe('what a message is about', () => {
  const staged = {
    v: 1 as const,
    type: 'staged' as const,
    at: '2026-12-03T14:02:09.000Z',
    draft_id: 'draft-9ae9',
    session_id: '20261203T140000-aaaa0000',
    tool: 'mail_send',
    taint: 'third_party' as const,
    goal: { kind: 'task' as const, id: 'task-1' },
    text: 'Hi Ana,\nthe totals are attached.',
  };

  it("puts a draft's goal, how it goes out and the third-party chip first, the ids last", () => {
    const message = draftMessage({ draft: staged, goalTitle: 'Send the totals' });
    const blocks = message.blocks as { text?: { text: string }; elements?: { text: string }[] }[];
    expect(message.text).toBe('A draft for “Send the totals”, to go out by mail_send');
    expect(blocks[0]?.text?.text).toBe('*A draft for “Send the totals”, to go out by mail_send*');
    expect(blocks[1]?.elements?.[0]?.text).toMatch(/^⚠ Third-party content: /);
    expect(blocks[2]?.text?.text).toBe('Hi Ana,\nthe totals are attached.');
    expect(blocks.at(-1)?.elements?.[0]?.text).toBe(
      'draft-9ae9 · session 20261203T140000-aaaa0000 · staged 2026-12-03 14:02 UTC',
    );
    // Without the board's title, the goal is named by its pointer, never left out.
    expect(draftMessage({ draft: staged }).text).toBe(
      'A draft for task task-1, to go out by mail_send',
    );
    expect(
      JSON.stringify(draftMessage({ draft: { ...staged, taint: 'clean' } }).blocks),
    ).not.toContain('Third-party');
  });

  it('offers "Open on the board" in place of Send and Edit for a draft cut to fit', () => {
    const long = { ...staged, text: 'x'.repeat(3001) };
    const message = draftMessage({ draft: long, boardUrl: 'http://127.0.0.1:3100/' });
    const json = JSON.stringify(message.blocks);
    expect(json).not.toContain(actionIds.draftSend);
    expect(json).not.toContain(actionIds.draftEdit);
    expect(json).toContain('"url":"http://127.0.0.1:3100/drafts#draft-draft-9ae9"');
    expect(json).toContain('Open on the board');
    const fits = JSON.stringify(
      draftMessage({ draft: { ...staged, text: 'x'.repeat(3000) } }).blocks,
    );
    expect(fits).toContain(actionIds.draftSend);
  });

  it("puts a task's due date and project beside its title, its id in the footer", () => {
    const message = taskMessage({
      task: {
        v: 1,
        kind: 'task',
        id: 'task-7',
        title: 'File the <!here> report',
        status: 'next',
        due: '2026-12-05',
        project_id: 'p-1',
      },
      projectTitle: 'Year end',
    });
    const blocks = message.blocks as { text?: { text: string }; elements?: { text: string }[] }[];
    expect(blocks[0]?.text?.text).toBe(
      '*File the &lt;!here&gt; report*\nnext · due 2026-12-05 · project “Year end”',
    );
    expect(blocks.at(-1)?.elements?.[0]?.text).toBe('task-7');
  });

  it('shows when an act happened in each reader’s own time, with UTC as the fallback', () => {
    expect(slackTime(new Date('2026-12-03T14:02:59.000Z'))).toEqual({
      mrkdwn: '<!date^1796306579^{time}|14:02 UTC>',
      text: '14:02 UTC',
    });
  });
});
