import { idSchema, timestampSchema } from '@mecha/appraisal-core';
import { z } from 'zod';

/**
 * A rule the learner adopted, in `learning/rules.jsonl`, with the reflections it came from.
 * Stores keep and validate these lines; producing rules (`mecha learn`) is not part of this
 * project, and the owner's verdicts on them live in the curation stores.
 */
export const ruleRecordSchema = z.object({
  v: z.literal(1),
  rule_id: idSchema,
  at: timestampSchema,
  text: z.string().min(1).max(4000),
  reflection_ids: z.array(idSchema).max(64),
});
/** See {@link ruleRecordSchema}. */
export type RuleRecord = z.infer<typeof ruleRecordSchema>;
