import { createHmac, timingSafeEqual } from 'node:crypto';

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
): { readonly ok: true } | { readonly ok: false; readonly refusal: RequestRefusal } {
  const { signature, timestamp } = request;
  if (signature === undefined || timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) {
    return { ok: false, refusal: 'unsigned' };
  }
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, request.rawBody));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, refusal: 'bad_signature' };
  }
  const { nowSeconds, seen } = options;
  if (Math.abs(nowSeconds - Number(timestamp)) > signatureWindowSeconds) {
    return { ok: false, refusal: 'stale' };
  }
  for (const [key, at] of seen) {
    if (Math.abs(nowSeconds - at) > signatureWindowSeconds) seen.delete(key);
  }
  if (seen.has(signature)) return { ok: false, refusal: 'replayed' };
  seen.set(signature, Number(timestamp));
  return { ok: true };
}
