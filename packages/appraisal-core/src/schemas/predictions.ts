import { z } from 'zod';
import { idSchema, nameSchema, taintSchema, timestampSchema } from './primitives.js';

/**
 * A prediction anticipation made before a send: the response the release check expected and
 * the kind of concern it named, about one staged draft. It is scored on read against the
 * draft's owner outcome, never by a model.
 */
export const predictionRecordSchema = z.object({
  v: z.literal(1),
  prediction_id: idSchema,
  at: timestampSchema,
  draft_id: idSchema,
  session_id: idSchema,
  /** The response the release check predicted (`release`, `hold`, `revise`, …). */
  response: nameSchema,
  /** The kind of concern the prediction named (`wrong_recipient`, `tone`, …). */
  concern: nameSchema,
  /** Whether third-party text was in the conversation when the prediction was made. */
  taint: taintSchema,
});
/** See {@link predictionRecordSchema}. */
export type PredictionRecord = z.infer<typeof predictionRecordSchema>;
