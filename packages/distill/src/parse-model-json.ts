import { couldNotRead, readValue, type ValueRead } from '@mecha/errors';
import type { z } from 'zod';

/** A model's JSON answer parsed against its schema, or why it could not be (the read shape). */
export type ParsedModelJson<T> = ValueRead<T>;

/**
 * Parses a model's answer that a grammar constrained to JSON: not JSON, or JSON that misses the
 * schema (the first issue, with its path), is a reason rather than a throw, so the caller can
 * count the failure and go on.
 */
export function parseModelJson<T>(text: string, schema: z.ZodType<T>): ParsedModelJson<T> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return couldNotRead('the answer is not JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return couldNotRead(
      `the answer does not match the schema: ${issue?.path.map(String).join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
    );
  }
  return readValue(parsed.data);
}
