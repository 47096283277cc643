import { z } from 'zod';
import { idSchema, nameSchema } from './primitives.js';

/** What an error was against: a charter line, a board task or project, a trigger or a request. */
export const goalRefSchema = z.object({
  kind: z.enum(['charter', 'task', 'project', 'trigger', 'request']),
  id: idSchema.optional(),
});
/** See {@link goalRefSchema}. */
export type GoalRef = z.infer<typeof goalRefSchema>;

/** The six signal paths; `setpoint` is reserved and `appraisal` is only read from old records. */
export const channelSchema = z.enum([
  'intervention',
  'edit',
  'counter',
  'setpoint',
  'commitment',
  'appraisal',
]);
/** The six signal paths; `setpoint` is reserved and `appraisal` is only read from old records. */
export type Channel = z.infer<typeof channelSchema>;

/** Who caused an outcome. Agency is read before exposure when deriving a label. */
export const agencySchema = z.enum(['self', 'owner', 'other', 'world']);
/** Who caused an outcome. Agency is read before exposure when deriving a label. */
export type Agency = z.infer<typeof agencySchema>;

/** Could it have gone otherwise? Unfilled until a counterfactual probe says. */
export const controllableSchema = z.union([z.boolean(), z.literal('unfilled')]);
/** See {@link controllableSchema}. */
export type Controllable = z.infer<typeof controllableSchema>;

/**
 * Where an error came from: always a pointer the harness minted, never prose. Each variant is
 * a turn index, an id or a name; `appraiser` is the retired counts-only appraiser.
 */
export const citeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('turn'), turn: z.int().nonnegative() }),
  z.object({ kind: z.literal('draft'), draft_id: idSchema }),
  z.object({ kind: z.literal('counter'), name: nameSchema }),
  z.object({ kind: z.literal('setpoint'), name: nameSchema }),
  z.object({ kind: z.literal('question'), question_id: idSchema }),
  z.object({ kind: z.literal('request'), request_id: idSchema }),
  z.object({ kind: z.literal('closure'), closure_id: idSchema }),
  z.object({ kind: z.literal('workflow'), workflow_id: idSchema }),
  z.object({ kind: z.literal('reflection'), reflection_id: idSchema }),
  z.object({ kind: z.literal('outcome'), outcome_id: idSchema }),
  z.object({ kind: z.literal('comparison'), comparison_id: idSchema }),
  z.object({ kind: z.literal('appraiser') }),
]);
/**
 * Where an error came from: always a pointer the harness minted, never prose. Each variant is
 * a turn index, an id or a name; `appraiser` is the retired counts-only appraiser.
 */
export type Cite = z.infer<typeof citeSchema>;

/**
 * One signed outcome: negative is worse. `visible` is computed exposure (did it reach anyone),
 * never a feeling. There is no free-text field anywhere in it.
 */
export const goalErrorSchema = z.object({
  goal: goalRefSchema.optional(),
  channel: channelSchema,
  sign: z.number().min(-1).max(1),
  agency: agencySchema,
  visible: z.boolean(),
  controllable: controllableSchema,
  cite: citeSchema,
});
/**
 * One signed outcome: negative is worse. `visible` is computed exposure (did it reach anyone),
 * never a feeling. There is no free-text field anywhere in it.
 */
export type GoalError = z.infer<typeof goalErrorSchema>;

/** The eleven labels. `shame` and `excitement` have no producer today and stay variants. */
export const labelSchema = z.enum([
  'neutral',
  'distress',
  'anger',
  'regret',
  'disappointment',
  'frustration',
  'pride',
  'embarrassment',
  'guilt',
  'shame',
  'excitement',
]);
/** See {@link labelSchema}. */
export type Label = z.infer<typeof labelSchema>;
