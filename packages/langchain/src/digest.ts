import { createHash } from 'node:crypto';

/** A `sha256:` digest of a value as JSON, for `argsDigest` and `resultDigest` (never the value). */
export function digestOf(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}
