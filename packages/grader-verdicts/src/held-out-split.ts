import { createHash } from 'node:crypto';
import { canonicalJson } from './drift/canonical-json.js';

/**
 * Which side of a held-out split a request falls on, keyed on its content alone: the same
 * request lands on the same side in every run, whatever its id, trace or position in a list.
 * `fraction` of requests (by hash) are held out.
 */
export function heldOutSide(content: unknown, fraction = 0.2, salt = ''): 'held-out' | 'train' {
  const digest = createHash('sha256')
    .update(`${salt}\0${typeof content === 'string' ? content : canonicalJson(content)}`)
    .digest();
  return digest.readUInt32BE(0) / 0x1_0000_0000 < fraction ? 'held-out' : 'train';
}

/**
 * Splits requests into train and held-out by `contentOf` (never by an id). The order of the
 * input is kept within each side.
 */
export function splitHeldOut<T>(
  requests: readonly T[],
  contentOf: (request: T) => unknown,
  fraction = 0.2,
  salt = '',
): { readonly train: T[]; readonly heldOut: T[] } {
  const train: T[] = [];
  const heldOut: T[] = [];
  for (const request of requests) {
    (heldOutSide(contentOf(request), fraction, salt) === 'held-out' ? heldOut : train).push(
      request,
    );
  }
  return { train, heldOut };
}
