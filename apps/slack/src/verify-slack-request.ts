import { createHmac, timingSafeEqual } from 'node:crypto';
import { type Either, left, type Refusal, right } from '@mecha/errors';

/** How far a request's timestamp may be from now, either way: Slack's five minutes. */
export const signatureWindowSeconds = 300;

/** What a signed request carries, as it arrived. */
export interface SignedRequest {
  readonly rawBody: string;
  /** `X-Slack-Signature`. */
  readonly signature: string | undefined;
  /** `X-Slack-Request-Timestamp`, in seconds. */
  readonly timestamp: string | undefined;
}

/** Why a request was refused before anything looked at it. */
export type RequestRefusal = 'unsigned' | 'bad_signature' | 'stale' | 'replayed';

/** A request refused before anything looked at it: which check it failed, and in words. */
export interface RequestRefused extends Refusal<'rejected'> {
  readonly reason: RequestRefusal;
}

const refusalWords: Readonly<Record<RequestRefusal, string>> = {
  unsigned: 'the request carries no Slack signature or timestamp',
  bad_signature: 'the request is not signed with this app’s signing secret',
  stale: `the request’s timestamp is more than ${signatureWindowSeconds} seconds from now`,
  replayed: 'the request repeats a signature already accepted',
};

function refused(reason: RequestRefusal): Either<RequestRefused, never> {
  return left({ kind: 'rejected', reason, message: refusalWords[reason] });
}

/** Slack's `v0` signature of a request body at a timestamp. */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  const digest = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:${rawBody}`)
    .digest('hex');
  return `v0=${digest}`;
}

/**
 * Checks a request's signature and timestamp, then refuses a signature already accepted inside
 * the window (a replay). Accepting records the signature in `seen`, which forgets entries once
 * their timestamp has left the window; a stale request is refused on its timestamp alone.
 */
export function verifySlackRequest(
  signingSecret: string,
  request: SignedRequest,
  options: { readonly nowSeconds: number; readonly seen: Map<string, number> },
): Either<RequestRefused, void> {
  const { signature, timestamp } = request;
  if (signature === undefined || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    return refused('unsigned');
  }
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, request.rawBody));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return refused('bad_signature');
  }
  const { nowSeconds, seen } = options;
  if (Math.abs(nowSeconds - Number(timestamp)) > signatureWindowSeconds) {
    return refused('stale');
  }
  for (const [key, at] of seen) {
    if (Math.abs(nowSeconds - at) > signatureWindowSeconds) seen.delete(key);
  }
  if (seen.has(signature)) return refused('replayed');
  seen.set(signature, Number(timestamp));
  return right(undefined);
}
