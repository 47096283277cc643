import { z } from 'zod';
import { stopCauseSchema, type TranscriptEvent } from '../schemas/transcript.js';

/** What a replay starts from: a steer or denial to remove, or a decided act to replay up to. */
export type ReplayMomentKind = 'steer' | 'deny' | 'draft_rejected' | 'draft_rewritten';

/**
 * Which system prompt an arm runs under: the one that covered the moment (a resumed run may
 * have changed it), the session's first, or none at all.
 */
export type ReplayPrompt = 'covering' | 'first' | 'none';

/** A policy an arm runs under: its name and the system prompt it takes. */
export interface ReplayPolicy {
  readonly name: string;
  readonly prompt: ReplayPrompt;
}

/**
 * One replay asked of a {@link Replayer}: the session's recorded prefix up to the moment (the
 * intervention itself and the owner's words that carried it removed), the system prompt the
 * policy chose (already resolved from the transcript), and the workspace the replay may touch.
 */
export interface ReplayRequest {
  readonly sessionId: string;
  readonly runId: string;
  /** The turn of the moment. */
  readonly turn: number;
  readonly kind: ReplayMomentKind;
  /** Why the arm runs: a probe removes an intervention, a comparison replays a decided act. */
  readonly purpose: 'probe' | 'compare';
  readonly policy: ReplayPolicy;
  /** The system prompt the policy resolves to; absent when it is `none` or none was recorded. */
  readonly systemPrompt?: string;
  /** The recorded events before the moment, in transcript order. */
  readonly prefix: readonly TranscriptEvent[];
  /** The directory the replay's agent is jailed to; never one that covers the mecha home. */
  readonly workspace: string;
  readonly signal?: AbortSignal;
}

/** One call an arm made, by tool and target (never its arguments' text). */
export const armCallSchema = z.object({
  tool: z.string().min(1).max(128),
  target: z.string().max(4096).optional(),
});
/** See {@link armCallSchema}. */
export type ArmCall = z.infer<typeof armCallSchema>;

/**
 * What an arm did: it ended (how, the calls it made, the drafts it wrote, the model it ran on),
 * or it failed to run. A replayer reports what happened; grading is the core's.
 */
export const armOutcomeSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('ended'),
    stop_cause: stopCauseSchema,
    calls: z.array(armCallSchema).max(256).default([]),
    drafts: z
      .array(z.object({ text: z.string().max(100_000) }))
      .max(64)
      .default([]),
    model: z.string().min(1).max(256).optional(),
  }),
  z.object({
    state: z.literal('failed'),
    reason: z.string().max(2000),
    model: z.string().min(1).max(256).optional(),
  }),
]);
/** See {@link armOutcomeSchema}. */
export type ArmOutcome = z.output<typeof armOutcomeSchema>;

/**
 * The port the counterfactual probe and `sessions compare` replay through: a scripted replayer
 * for tests, a local model, or a harness's own agent. Each call drives one arm.
 */
export interface Replayer {
  /** How the replayer names itself in a readout (`scripted`, `local-model`, …). */
  readonly name: string;
  replay(request: ReplayRequest): Promise<ArmOutcome>;
}
