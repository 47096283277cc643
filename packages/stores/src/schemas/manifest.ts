import { z } from 'zod';

/**
 * `manifest.json` at the root of the home: every store ever created there, by its path
 * relative to the home (`outbox/outbox.jsonl`, `sessions/`, `charter.toml`). It is how a reader
 * tells a store that was never written (read as empty) from one that vanished (unreadable).
 * Written whole to a temporary file, fsynced and renamed over the old one.
 */
export const manifestSchema = z.object({
  v: z.literal(1),
  created: z.array(z.string().min(1).max(256)),
});
/** See {@link manifestSchema}. */
export type Manifest = z.infer<typeof manifestSchema>;
