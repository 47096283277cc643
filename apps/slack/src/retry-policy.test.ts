import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  retryDelayMs,
  slackErrorCode,
  standingErrorLine,
  standingSlackError,
  watcherRetry,
} from './retry-policy.js';

describe('retryDelayMs', () => {
  it('doubles from the first wait and never passes the longest', () => {
    expect([1, 2, 3, 4, 5].map((failures) => retryDelayMs(failures))).toEqual([
      2_000, 4_000, 8_000, 16_000, 32_000,
    ]);
    expect(retryDelayMs(1_000)).toBe(watcherRetry.mostMs);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), (failures) => {
        const delay = retryDelayMs(failures);
        expect(delay).toBeGreaterThanOrEqual(retryDelayMs(failures > 1 ? failures - 1 : 1));
        expect(delay).toBeLessThanOrEqual(watcherRetry.mostMs);
        expect(delay).toBeGreaterThanOrEqual(watcherRetry.firstMs);
      }),
    );
  });

  it('allows at most a handful of tries in any minute of failures, however often one looks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000 }), (pollMs) => {
        // Tries happen at the first look at or after each wait ends.
        let at = 0;
        let tries = 0;
        let next = 0;
        for (let failures = 0; at <= 60_000; at += pollMs) {
          if (at < next) continue;
          tries += 1;
          failures += 1;
          next = at + retryDelayMs(failures);
        }
        expect(tries).toBeLessThanOrEqual(5);
      }),
    );
  });
});

describe('standingSlackError', () => {
  it('names the setting for each error that will not fix itself, and none for the rest', () => {
    const failure = (code: string) =>
      Object.assign(new Error(`An API error occurred: ${code}`), { data: { error: code } });
    expect(standingSlackError(failure('channel_not_found'))?.variable).toBe('MECHA_SLACK_CHANNEL');
    expect(standingSlackError(failure('not_in_channel'))?.variable).toBe('MECHA_SLACK_CHANNEL');
    expect(standingSlackError(failure('invalid_auth'))?.variable).toBe('SLACK_BOT_TOKEN');
    expect(standingSlackError(failure('account_inactive'))?.variable).toBe('SLACK_BOT_TOKEN');
    for (const code of ['ratelimited', 'internal_error', 'fatal_error', 'request_timeout']) {
      expect(standingSlackError(failure(code))).toBeUndefined();
    }
    expect(standingSlackError(new Error('socket hang up'))).toBeUndefined();
    expect(slackErrorCode(new Error('An API error occurred: not_in_channel'))).toBe(
      'not_in_channel',
    );
  });

  it('says which variable to fix in one line', () => {
    const failure = standingSlackError({ data: { error: 'not_in_channel' } });
    expect(failure && standingErrorLine(failure, 'C0CHANNEL')).toBe(
      'Slack refused to post (not_in_channel): MECHA_SLACK_CHANNEL C0CHANNEL is a channel the bot is not in: invite it there (/invite @mecha). Nothing more is posted until mecha slack is restarted with it fixed.',
    );
  });
});
