import { z } from 'zod';
import { idSchema, timestampSchema } from './primitives.js';

const base = { v: z.literal(1), at: timestampSchema, workflow_id: idSchema };

/**
 * A workflow's lifecycle: started for a session (optionally bound to a task), verified, and
 * closed, cancelled or reopened by the owner.
 */
export const workflowRecordSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('started'),
    session_id: idSchema,
    task_id: idSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('verified'),
    check: z.enum(['artifact', 'delivery']),
    passed: z.boolean(),
    session_id: idSchema,
  }),
  z.object({ ...base, type: z.literal('closed') }),
  z.object({ ...base, type: z.literal('cancelled') }),
  z.object({ ...base, type: z.literal('reopened') }),
]);
/** See {@link workflowRecordSchema}. */
export type WorkflowRecord = z.infer<typeof workflowRecordSchema>;
