import type { z } from 'zod';
import { compileCanonical, type Predicate } from './canonical-compiler.js';
import type { Schema } from './zod-internals.js';

/**
 * Validates records against one zod schema, cheaply on the common path. `validate` returns the
 * parsed record, or `undefined` when the schema rejects the value; `explain` says why.
 */
export interface RecordValidator<T> {
  validate(value: unknown): T | undefined;
  explain(value: unknown): string;
  /** Whether a value takes the compiled path: zod would accept it and return it unchanged. */
  isCanonical(value: unknown): boolean;
}

/** The first issue of a failed parse, as `path: message`. */
function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid record';
  const path = issue.path.map(String).join('.');
  const message = issue.message.length > 200 ? `${issue.message.slice(0, 200)}…` : issue.message;
  return path === '' ? message : `${path}: ${message}`;
}

/**
 * Compiles a record validator from a zod schema. A value that zod would accept and return
 * unchanged (no default to fill, no key to strip, no older version to upgrade) is recognised by
 * a predicate compiled from the schema's own definition, reusing its patterns; everything else
 * goes to zod itself, which stays the authority. So reading pays zod's full price only for
 * records that are not already in canonical form.
 */
export function recordValidator<S extends z.ZodType>(schema: S): RecordValidator<z.output<S>> {
  // Compiled on first use: a command that never reads a store never pays for its validator.
  let compiled: Predicate | undefined;
  const canonical: Predicate = (value) => {
    compiled ??= compileCanonical(schema as unknown as Schema) ?? (() => false);
    return compiled(value);
  };
  return {
    validate(value) {
      if (canonical(value)) return value as z.output<S>;
      const parsed = schema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
    explain(value) {
      const parsed = schema.safeParse(value);
      return parsed.success ? 'valid' : describeIssue(parsed.error);
    },
    isCanonical: canonical,
  };
}
