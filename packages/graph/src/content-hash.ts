import { createHash } from 'node:crypto';

/** JSON-like values an episode body or its metadata can hold. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

function canonical(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const record = value as { readonly [key: string]: JsonValue };
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key] as JsonValue)}`).join(',')}}`;
}

/**
 * A content hash that ignores key order, so an upsert can decide "unchanged" before any other
 * work: the same body and metadata always hash the same, whatever order a writer built them in.
 */
export function contentHash(value: JsonValue): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}
