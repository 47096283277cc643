import { z } from 'zod';
import { goalRefSchema } from './goal-error.js';
import { idSchema, timestampSchema } from './primitives.js';

/** A question a run parked for the owner; `goal` questions ask the owner to confirm the goal. */
export const questionRecordSchema = z.discriminatedUnion('type', [
  z.object({
    v: z.literal(1),
    type: z.literal('parked'),
    at: timestampSchema,
    question_id: idSchema,
    session_id: idSchema,
    purpose: z.enum(['goal', 'ordinary']).default('ordinary'),
    goal: goalRefSchema.optional(),
  }),
  z.object({
    v: z.literal(1),
    type: z.literal('answered'),
    at: timestampSchema,
    question_id: idSchema,
    /**
     * The owner's answer, as typed (line endings `\n`): what the parked run resumes with.
     * Absent on answers recorded before mecha kept the words. An older reader drops the field.
     */
    text: z.string().min(1).optional(),
  }),
  z.object({
    v: z.literal(1),
    type: z.literal('abandoned'),
    at: timestampSchema,
    question_id: idSchema,
  }),
]);
/** See {@link questionRecordSchema}. */
export type QuestionRecord = z.infer<typeof questionRecordSchema>;
