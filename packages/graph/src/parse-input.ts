import { type ZodType, z } from 'zod';
import { GraphInputError } from './graph-input-error.js';

/** Parses `input` with `schema`; a failure becomes a GraphInputError listing what to fix. */
export function parseInput<T extends ZodType>(
  schema: T,
  input: unknown,
  what: string,
): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new GraphInputError(
    `invalid ${what}; fix these and send it again:\n${z.prettifyError(parsed.error)}`,
  );
}
