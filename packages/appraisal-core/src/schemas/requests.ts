import { z } from 'zod';
import { idSchema, timestampSchema } from './primitives.js';

/**
 * The front door's request lifecycle: received, triaged by a session, a draft linked, parked
 * on the requester (`needs_info`, which owes nothing), and closed.
 */
export const requestRecordSchema = z.discriminatedUnion('type', [
  z.object({
    v: z.literal(1),
    type: z.literal('received'),
    at: timestampSchema,
    request_id: idSchema,
  }),
  z.object({
    v: z.literal(1),
    type: z.literal('triaged'),
    at: timestampSchema,
    request_id: idSchema,
    session_id: idSchema,
  }),
  z.object({
    v: z.literal(1),
    type: z.literal('draft_linked'),
    at: timestampSchema,
    request_id: idSchema,
    draft_id: idSchema,
  }),
  z.object({
    v: z.literal(1),
    type: z.literal('needs_info'),
    at: timestampSchema,
    request_id: idSchema,
  }),
  z.object({
    v: z.literal(1),
    type: z.literal('closed'),
    at: timestampSchema,
    request_id: idSchema,
  }),
]);
/** See {@link requestRecordSchema}. */
export type RequestRecord = z.infer<typeof requestRecordSchema>;
