import { z } from 'zod';
import { idSchema, nameSchema, taintSchema, timestampSchema } from './primitives.js';

/**
 * One replayed moment from `sessions compare`: which moment (a steer, a refusal, a draft the
 * owner rewrote or rejected), the model its arms ran on, and the verdict of the check.
 */
export const comparisonRecordSchema = z.object({
  v: z.literal(1),
  comparison_id: idSchema,
  at: timestampSchema,
  session_id: idSchema,
  /** The kind of moment replayed (`steer`, `refusal`, `draft_rewritten`, `draft_rejected`). */
  moment: nameSchema,
  /** The model the arms ran on; absent when none was run or none was recorded. */
  model: z.string().min(1).max(256).optional(),
  /** `unposed`: no structural test could pose the moment, so no model was run on it. */
  verdict: z.enum(['separated', 'tied', 'inconclusive', 'unreadable_verdict', 'unposed']),
  /** Who decided a separated or tied verdict: a structural validator or a model judge. */
  decided_by: z.enum(['validator', 'judge']).optional(),
});
/** See {@link comparisonRecordSchema}. */
export type ComparisonRecord = z.infer<typeof comparisonRecordSchema>;

/**
 * A counterfactual reflection distillation added to a session's appraisal from a decided
 * comparison (`appraisals/counterfactuals.jsonl`), carrying the appraisal's taint.
 */
export const counterfactualRecordSchema = z.object({
  v: z.literal(1),
  reflection_id: idSchema,
  at: timestampSchema,
  session_id: idSchema,
  comparison_id: idSchema,
  taint: taintSchema,
});
/** See {@link counterfactualRecordSchema}. */
export type CounterfactualRecord = z.infer<typeof counterfactualRecordSchema>;
