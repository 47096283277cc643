import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slackSignature, verifySlackRequest } from './verify-slack-request.js';

/** Which check refused a request, or `accepted`. */
function outcome(verified: ReturnType<typeof verifySlackRequest>): string {
  return verified._tag === 'Left' ? verified.left.reason : 'accepted';
}

const secret = '0123456789abcdef0123456789abcdef';
const now = 1_790_000_000;

describe('verifySlackRequest', () => {
  it("matches Slack's documented example signature", () => {
    // The worked example in Slack's "Verifying requests from Slack" guide.
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(slackSignature('8f742231b10e8888abcd99yyyzzz85a5', '1531420618', body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('accepts a request signed in the window once, and refuses the same signature again', () => {
    const seen = new Map<string, number>();
    const timestamp = String(now - 10);
    const request = {
      rawBody: 'a=1',
      timestamp,
      signature: slackSignature(secret, timestamp, 'a=1'),
    };
    expect(verifySlackRequest(secret, request, { nowSeconds: now, seen })).toEqual({
      _tag: 'Right',
      right: undefined,
    });
    expect(verifySlackRequest(secret, request, { nowSeconds: now, seen })).toEqual({
      _tag: 'Left',
      left: {
        kind: 'rejected',
        reason: 'replayed',
        message: 'the request repeats a signature already accepted',
      },
    });
  });

  it('refuses a timestamp more than five minutes away, either way', () => {
    for (const offset of [-301, 301]) {
      const timestamp = String(now + offset);
      const request = {
        rawBody: 'a=1',
        timestamp,
        signature: slackSignature(secret, timestamp, 'a=1'),
      };
      expect(
        outcome(verifySlackRequest(secret, request, { nowSeconds: now, seen: new Map() })),
      ).toBe('stale');
    }
  });

  it('refuses a request without its headers as unsigned', () => {
    expect(
      outcome(
        verifySlackRequest(
          secret,
          { rawBody: 'a=1', timestamp: undefined, signature: 'v0=00' },
          { nowSeconds: now, seen: new Map() },
        ),
      ),
    ).toBe('unsigned');
  });

  it('refuses any change to the body, the timestamp or the secret', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.integer({ min: -300, max: 300 }),
        fc.constantFrom('body', 'timestamp', 'secret'),
        (body, extra, offset, what) => {
          const timestamp = String(now + offset);
          const signature = slackSignature(secret, timestamp, body);
          const changed = {
            rawBody: what === 'body' ? body + extra : body,
            timestamp: what === 'timestamp' ? String(now + offset + 1) : timestamp,
            signature,
          };
          const verified = verifySlackRequest(what === 'secret' ? `${secret}0` : secret, changed, {
            nowSeconds: now,
            seen: new Map(),
          });
          expect(outcome(verified)).toBe('bad_signature');
        },
      ),
    );
  });
});
