import { z } from 'zod';
import { idSchema, nameSchema } from '../schemas/primitives.js';
import {
  type ArmOutcome,
  armOutcomeSchema,
  type Replayer,
  type ReplayRequest,
} from './replayer.js';

/**
 * One scripted arm: the moment it answers (session, turn, and optionally the policy and the
 * purpose) and the outcome it reports. The first entry that matches a request answers it.
 */
export const replayScriptEntrySchema = z.object({
  session_id: idSchema,
  turn: z.int().nonnegative(),
  policy: nameSchema.optional(),
  purpose: z.enum(['probe', 'compare']).optional(),
  outcome: armOutcomeSchema,
});
/** See {@link replayScriptEntrySchema}. */
export type ReplayScriptEntry = z.input<typeof replayScriptEntrySchema>;

/** A {@link Replayer} that answers from a script, and keeps every request it was asked. */
export interface ScriptedReplayer extends Replayer {
  readonly requests: readonly ReplayRequest[];
}

/**
 * A replayer for tests and dry runs: each request is answered by the first script entry that
 * names its session and turn (and its policy and purpose, where the entry names them). A
 * request no entry answers is a failed arm, which the probe grades inconclusive. It runs no
 * model, so it stands in where a real agent cannot run (tests), and says so by its name.
 */
export function createScriptedReplayer(script: readonly ReplayScriptEntry[]): ScriptedReplayer {
  const entries = script.map((entry) => replayScriptEntrySchema.parse(entry));
  const requests: ReplayRequest[] = [];
  return {
    name: 'scripted',
    requests,
    async replay(request: ReplayRequest): Promise<ArmOutcome> {
      requests.push(request);
      const found = entries.find(
        (entry) =>
          entry.session_id === request.sessionId &&
          entry.turn === request.turn &&
          (entry.policy === undefined || entry.policy === request.policy.name) &&
          (entry.purpose === undefined || entry.purpose === request.purpose),
      );
      if (found === undefined) {
        return {
          state: 'failed',
          reason: `no scripted arm for session ${request.sessionId}, turn ${request.turn}, policy ${request.policy.name}`,
        };
      }
      return found.outcome;
    },
  };
}
