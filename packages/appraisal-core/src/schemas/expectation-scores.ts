import { z } from 'zod';
import { expectedActSchema } from './learning.js';
import { idSchema, taintSchema, timestampSchema } from './primitives.js';

/**
 * One scored expectation, recorded once by distillation in `appraisals/scores.jsonl`: what the
 * appraisal expected, the owner's first act within the wait (or `no_act`), and whether it hit.
 */
export const expectationScoreRecordSchema = z.object({
  v: z.literal(1),
  appraisal_id: idSchema,
  session_id: idSchema,
  at: timestampSchema,
  expected: expectedActSchema,
  actual: expectedActSchema,
  hit: z.boolean(),
  taint: taintSchema,
});
/** See {@link expectationScoreRecordSchema}. */
export type ExpectationScoreRecord = z.infer<typeof expectationScoreRecordSchema>;
