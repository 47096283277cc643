import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** The environment variable whose value, when set, keys an HMAC over the frozen bank. */
export const sealKeyVariable = 'MECHA_VERDICTS_SEAL_KEY';

/** A seal: the sha256 of the canonical JSON, and an HMAC-SHA256 of it when a key was set. */
export interface Seal {
  readonly sha256: string;
  readonly hmac?: string | undefined;
}

/** Seals a value: anyone can recompute the sha256; only a key holder can make the HMAC. */
export function sealOf(value: unknown, key?: string): Seal {
  const text = canonicalJson(value);
  const sha256 = createHash('sha256').update(text).digest('hex');
  return key === undefined || key === ''
    ? { sha256 }
    : { sha256, hmac: createHmac('sha256', key).update(text).digest('hex') };
}

/** Whether a seal holds over a value, and what could not be verified. */
export interface SealCheck {
  readonly holds: boolean;
  readonly problems: readonly string[];
  /** True when an HMAC is on the seal but no key was given to check it. */
  readonly hmacUnverified: boolean;
}

function same(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a seal. With a key, the HMAC must be present and match (a stripped HMAC is a broken
 * seal: anyone can recompute a bare sha256). Without a key, an HMAC is reported unverified.
 */
export function checkSeal(value: unknown, seal: Seal, key?: string): SealCheck {
  const fresh = sealOf(value, key);
  const problems: string[] = [];
  if (!same(fresh.sha256, seal.sha256))
    problems.push('the sha256 of the frozen bank does not match');
  const keyed = key !== undefined && key !== '';
  if (keyed) {
    if (seal.hmac === undefined)
      problems.push(`${sealKeyVariable} is set but the bank carries no HMAC`);
    else if (!same(fresh.hmac ?? '', seal.hmac))
      problems.push('the HMAC of the frozen bank does not match');
  }
  return {
    holds: problems.length === 0,
    problems,
    hmacUnverified: !keyed && seal.hmac !== undefined,
  };
}
