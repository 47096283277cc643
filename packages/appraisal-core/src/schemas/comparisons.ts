import { z } from 'zod';
import { idSchema, nameSchema, taintSchema, timestampSchema } from './primitives.js';

/** Where a compared moment sits: the message's turn, the call's index in that turn, a draft id. */
export const comparisonPointSchema = z.object({
  turn: z.int().nonnegative().optional(),
  call: z.int().nonnegative().optional(),
  draft_id: idSchema.optional(),
});
/** See {@link comparisonPointSchema}. */
export type ComparisonPoint = z.infer<typeof comparisonPointSchema>;

/**
 * The structural checks a comparison can pose: did the arm draft the text the owner rejected
 * (or rewrote), or make the call the owner denied (or steered away from).
 */
export const comparisonValidatorSchema = z.enum([
  'rejected_draft',
  'rewritten_draft',
  'denied_call',
  'steered_call',
]);
/** See {@link comparisonValidatorSchema}. */
export type ComparisonValidator = z.infer<typeof comparisonValidatorSchema>;

/**
 * One arm of a comparison: the policy's name, which system prompt it ran under (the one that
 * covered the moment, the session's first, or none) with a digest of that prompt, and what the
 * validator found: it did what the owner refused, it did not, or it could not be graded.
 */
export const comparisonArmSchema = z.object({
  policy: nameSchema,
  prompt: z.enum(['covering', 'first', 'none']),
  prompt_digest: z
    .string()
    .regex(/^[0-9a-f]{12}$/)
    .optional(),
  result: z.enum(['did_refused', 'did_not', 'ungraded']),
});
/** See {@link comparisonArmSchema}. */
export type ComparisonArm = z.infer<typeof comparisonArmSchema>;

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
  /** Where in the session the moment sits: its turn, the call's index in it, the draft. */
  point: comparisonPointSchema.optional(),
  /** The structural check the arms were held to; absent when no check could pose the moment. */
  validator: comparisonValidatorSchema.optional(),
  /** Each arm: the policy it ran under and what the check found it did. */
  arms: z.array(comparisonArmSchema).max(16).optional(),
});
/** See {@link comparisonRecordSchema}. */
export type ComparisonRecord = z.infer<typeof comparisonRecordSchema>;

/** The fields of a comparison a counterfactual reflection quotes, as they were when it was written. */
export const counterfactualQuoteSchema = z.object({
  moment: nameSchema,
  verdict: z.literal('separated'),
  validator: comparisonValidatorSchema,
  point: comparisonPointSchema,
  lost: z.array(comparisonArmSchema).max(16),
  won: z.array(comparisonArmSchema).max(16),
  model: z.string().min(1).max(256).optional(),
});
/** See {@link counterfactualQuoteSchema}. */
export type CounterfactualQuote = z.infer<typeof counterfactualQuoteSchema>;

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
  /** The reflection as mecha worded it from the comparison's record; no owner or draft text. */
  text: z.string().max(2000).optional(),
  /** What the reflection quotes from its comparison, checked again on every read. */
  quoted: counterfactualQuoteSchema.optional(),
});
/** See {@link counterfactualRecordSchema}. */
export type CounterfactualRecord = z.infer<typeof counterfactualRecordSchema>;
