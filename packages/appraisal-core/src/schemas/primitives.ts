import { z } from 'zod';

/**
 * An identifier the harness minted or the owner chose: ASCII letters, lowercase letters of any
 * script (a charter line may be `réponses`), digits, combining marks and `._:-`, at most 128
 * characters. Never prose — no spaces, punctuation or controls — so nothing a model wrote can
 * ride in a field that holds one.
 */
export const idSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9\p{Ll}\p{Lo}\p{Nd}][A-Za-z0-9\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}._:-]{0,127}$/u,
    'an id: letters, digits and ._:- only',
  );

/** A counter or setpoint name: lower snake case, at most 64 characters. */
export const nameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'a name: lower snake case only');

/** A moment, as an ISO 8601 timestamp with an offset (`2026-09-25T09:00:00Z`). */
export const timestampSchema = z.iso.datetime({ offset: true });

/**
 * Whether third-party content was in the conversation: `clean`, `third_party`, or `unknown`
 * when it could not be read. Unknown is never treated as clean.
 */
export const taintSchema = z.enum(['clean', 'third_party', 'unknown']);
/**
 * Whether third-party content was in the conversation: `clean`, `third_party`, or `unknown`
 * when it could not be read. Unknown is never treated as clean.
 */
export type Taint = z.infer<typeof taintSchema>;

/** Who performed an owner-side act, as the harness recorded it. */
export const actorSchema = z.enum(['owner', 'run_shell', 'unrecorded']);
/** Who performed an owner-side act, as the harness recorded it. */
export type Actor = z.infer<typeof actorSchema>;
