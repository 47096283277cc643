import { idSchema, timestampSchema } from '@mecha/appraisal-core';
import { z } from 'zod';

/**
 * One line of the distill ledger, `learning/distilled.jsonl`: a session distillation is done
 * with, and why — pushed to the graph, skipped by the distiller, or too short to teach anything.
 * A failed push or an unreadable transcript is never marked, so a later run retries it.
 */
export const distilledRecordSchema = z.object({
  v: z.literal(1),
  at: timestampSchema,
  session_id: idSchema,
  outcome: z.enum(['pushed', 'skipped', 'too_short']),
});
/** See {@link distilledRecordSchema}. */
export type DistilledRecord = z.infer<typeof distilledRecordSchema>;
