import { z } from 'zod';
import { goalRefSchema } from './goal-error.js';
import { idSchema, taintSchema, timestampSchema } from './primitives.js';

/**
 * A reflection the reflector mined from a session. `clean` is as mined (no third-party
 * content); only a clean reflection that judged a later turn a correction signs a run.
 */
export const reflectionRecordSchema = z.object({
  v: z.literal(1),
  reflection_id: idSchema,
  session_id: idSchema,
  at: timestampSchema,
  clean: z.boolean(),
  /** The turn the reflector identified as the owner correcting the run, if it did. */
  correction_turn: z.int().nonnegative().optional(),
  /**
   * A lesson `mecha reflect` wrote from one owner correction: which correction (a steer, a
   * rejection with its reason, a reopen with its reason), the lesson, the owner's words it quotes
   * (found in what the owner said, or it is not written), the verified success it was shown beside
   * when contrast evidence was on, and the model that wrote it. Older records carry none, and a
   * lesson never signs a run: only `correction_turn` does.
   */
  lesson: z
    .object({
      correction_id: z.string().min(1).max(512),
      correction: z.enum(['steer', 'rejection', 'reopen', 'follow_up']),
      cite: z.object({ kind: z.enum(['turn', 'draft', 'closure']), id: idSchema }),
      text: z.string().min(1).max(2_000),
      quote: z.string().min(1).max(2_000),
      contrast: z
        .object({
          session_id: idSchema,
          verified_by: z.string().max(300),
          trace: z.string().max(2_000),
        })
        .optional(),
      reflected_by: z.string().max(300),
      /** The reflector prompt's identity (a digest of its instructions and grammar). */
      prompt: z.string().max(100).optional(),
    })
    .optional(),
  /**
   * The reflector judged the owner's next message after a run ended a correction: which message
   * (its id; `correction_turn` is its turn), the owner's words the judgment rests on (found in
   * that message, or nothing is written), the model and the prompt that judged. A record with a
   * judgment is what signs the run, once, through `correction_turn`.
   */
  judgment: z
    .object({
      correction_id: z.string().min(1).max(512),
      message_id: idSchema,
      quote: z.string().min(1).max(2_000),
      judged_by: z.string().max(300),
      prompt: z.string().max(100),
    })
    .optional(),
  /**
   * The reflector was asked and gave nothing to keep: a follow-up it judged no correction, a
   * judgment or lesson whose quote is not in the owner's words, or a lesson it skipped. Kept so
   * the same model under the same prompt is not asked again; another model or prompt is.
   * Signs nothing.
   */
  declined: z
    .object({
      correction_id: z.string().min(1).max(512),
      step: z.enum(['judge', 'lesson']),
      outcome: z.enum(['not_a_correction', 'not_grounded', 'nothing_to_learn']),
      asked_with: z.object({ model: z.string().max(300), prompt: z.string().max(100) }),
    })
    .optional(),
});
/** See {@link reflectionRecordSchema}. */
export type ReflectionRecord = z.infer<typeof reflectionRecordSchema>;

/**
 * The owner's verdict on what the learner produced — a rule, a reflection, a harness candidate.
 * Counted in its own section and never a signed error on any run.
 */
export const curationRecordSchema = z.object({
  v: z.literal(1),
  at: timestampSchema,
  target: z.enum(['rule', 'reflection', 'candidate']),
  target_id: idSchema,
  verdict: z.enum(['retired', 'restored', 'dropped', 'edited', 'accepted', 'rejected', 'reverted']),
  /** For an `edited` verdict on a reflection: the owner's text that replaces the lesson's. */
  text: z.string().min(1).max(2_000).optional(),
});
/** See {@link curationRecordSchema}. */
export type CurationRecord = z.infer<typeof curationRecordSchema>;

/**
 * What the owner reported after a delivered draft: fine, a confirmed error in mecha's unchanged
 * message that reached someone, or an adverse impact against a recorded commitment.
 */
export const ownerOutcomeRecordSchema = z.object({
  v: z.literal(1),
  outcome_id: idSchema,
  at: timestampSchema,
  draft_id: idSchema,
  session_id: idSchema,
  kind: z.enum(['fine', 'confirmed_error', 'adverse_impact']),
  /** For an adverse impact: the recorded commitment (a request or question id) it went against. */
  commitment_id: idSchema.optional(),
});
/** See {@link ownerOutcomeRecordSchema}. */
export type OwnerOutcomeRecord = z.infer<typeof ownerOutcomeRecordSchema>;

/** What the appraiser expects the owner to do with this kind of output next time. */
export const expectedActSchema = z.enum([
  'released_unchanged',
  'edited',
  'rejected',
  'closed',
  'reopened',
  'no_act',
]);
/** See {@link expectedActSchema}. */
export type ExpectedAct = z.infer<typeof expectedActSchema>;

/** How a session went for one goal it bore on, as the appraiser judged it. */
export const goalOutcomeSchema = z.enum(['went_well', 'went_badly', 'mixed', 'unclear']);
/** See {@link goalOutcomeSchema}. */
export type GoalOutcome = z.infer<typeof goalOutcomeSchema>;

/**
 * One per-goal judgment of a text appraisal: the goal (only when it resolved to one mecha holds;
 * absent means no goal), how the session went for it, and why, in prose.
 */
export const goalJudgmentSchema = z.object({
  goal: goalRefSchema.optional(),
  outcome: goalOutcomeSchema,
  text: z.string().max(2_000),
});
/** See {@link goalJudgmentSchema}. */
export type GoalJudgment = z.infer<typeof goalJudgmentSchema>;

/**
 * A text appraisal kept in `appraisals/appraisals.jsonl`: mecha's prose reading of a session,
 * written by distillation on the local model. The core reads only what it scores and counts.
 */
export const textAppraisalRecordSchema = z.object({
  v: z.literal(1),
  appraisal_id: idSchema,
  session_id: idSchema,
  at: timestampSchema,
  taint: taintSchema,
  expected_act: expectedActSchema.optional(),
  interpretation: z.string().max(20_000),
  claims_kept: z.int().nonnegative(),
  claims_dropped: z.record(z.string().max(64), z.int().nonnegative()),
  goal_unresolved: z.boolean().default(false),
  /**
   * The claims kept, each citing a tool result (by call id) or an owner message (by message id)
   * with a quote found in it. Older records carry only the counts.
   */
  claims: z
    .array(
      z.object({
        text: z.string().max(2_000),
        cite: z.object({ kind: z.enum(['tool_result', 'owner_message']), id: idSchema }),
        quote: z.string().min(1).max(2_000),
      }),
    )
    .max(64)
    .optional(),
  /** What the appraiser expects next time, in prose, beside the checkable expected act. */
  prediction: z.string().max(4_000).optional(),
  /** The goal the appraisal judged against, only when it resolved to one mecha holds. */
  goal: goalRefSchema.optional(),
  /**
   * Whether the session went well or badly for each goal it bore on. A judgment whose goal
   * mecha does not hold is kept with no goal and counted in `judgment_goals_unresolved`.
   * Older records carry none.
   */
  judgments: z.array(goalJudgmentSchema).max(16).optional(),
  /** Judgments whose goal mecha does not hold (recorded as no goal). */
  judgment_goals_unresolved: z.int().nonnegative().optional(),
  /** What the owner's reactions suggest they want, in prose. Older records carry none. */
  owner_wants: z.string().max(4_000).optional(),
  /** Lessons for next time, each a sentence or two. Older records carry none. */
  lessons: z.array(z.string().min(1).max(2_000)).max(16).optional(),
});
/** See {@link textAppraisalRecordSchema}. */
export type TextAppraisalRecord = z.infer<typeof textAppraisalRecordSchema>;
