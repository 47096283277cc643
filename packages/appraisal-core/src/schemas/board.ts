import { z } from 'zod';
import { idSchema } from './primitives.js';

/** A board task's status. Only the owner moves a task into `done` or `dropped`. */
export const taskStatusSchema = z.enum(['inbox', 'next', 'waiting', 'done', 'dropped']);
/** See {@link taskStatusSchema}. */
export type TaskStatus = z.infer<typeof taskStatusSchema>;

/** A task on the owner's board. `due` is a date (`2026-09-30`) or a timestamp. */
export const boardTaskSchema = z.object({
  v: z.literal(1),
  kind: z.literal('task'),
  id: idSchema,
  title: z.string().max(1000),
  status: taskStatusSchema,
  project_id: idSchema.optional(),
  due: z.union([z.iso.date(), z.iso.datetime({ offset: true })]).optional(),
  /** Who holds it: the agent, the owner, or someone else. */
  holder: z.enum(['agent', 'owner', 'other']).optional(),
});
/** A task on the owner's board. `due` is a date (`2026-09-30`) or a timestamp. */
export type BoardTask = z.infer<typeof boardTaskSchema>;

/** A project on the board; its tasks point at it by `project_id`. */
export const boardProjectSchema = z.object({
  v: z.literal(1),
  kind: z.literal('project'),
  id: idSchema,
  title: z.string().max(1000),
});
/** See {@link boardProjectSchema}. */
export type BoardProject = z.infer<typeof boardProjectSchema>;

/** One row of the board. */
export const boardRecordSchema = z.discriminatedUnion('kind', [
  boardTaskSchema,
  boardProjectSchema,
]);
/** See {@link boardRecordSchema}. */
export type BoardRecord = z.infer<typeof boardRecordSchema>;
