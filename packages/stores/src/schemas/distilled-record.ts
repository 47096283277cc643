import { idSchema, timestampSchema } from '@mecha/appraisal-core';
import { z } from 'zod';

/**
 * One line of the distill ledger, `learning/distilled.jsonl`: a session distillation is done
 * with, and why — pushed to the graph, skipped by the distiller, too short to teach anything, or
 * given up after a failure that repeats on every try (`given_up`). A `failed` line counts one
 * such try and leaves the session for a later run. A failed push or an unreadable transcript is
 * never marked, so a later run retries it.
 */
export const distilledRecordSchema = z.object({
  v: z.literal(1),
  at: timestampSchema,
  session_id: idSchema,
  outcome: z.enum(['pushed', 'skipped', 'too_short', 'failed', 'given_up']),
  /** With `failed` and `given_up`: what failed, in words for people. */
  reason: z.string().max(1_000).optional(),
});
/** See {@link distilledRecordSchema}. */
export type DistilledRecord = z.infer<typeof distilledRecordSchema>;
