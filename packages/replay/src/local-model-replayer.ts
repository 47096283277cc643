import {
  type ArmOutcome,
  armOutcomeSchema,
  type Replayer,
  type ReplayRequest,
} from '@mecha/appraisal-core';
import type { CompletionModel } from '@mecha/local-model';
import { armReplySchema, replayPrompt } from './replay-prompt.js';

/** Options of {@link createLocalModelReplayer}. */
export interface LocalModelReplayerOptions {
  /** The most tokens one arm may generate. */
  readonly maxTokens?: number;
}

/**
 * A {@link Replayer} that re-drives a recorded conversation through a local model: the prefix
 * goes through the model's own chat template under the system prompt the request carries, and
 * the reply is held to a JSON-schema grammar. A reply cut short or not matching the arm's shape
 * is a failed arm (the probe grades it inconclusive); it never guesses.
 */
export function createLocalModelReplayer(
  model: CompletionModel,
  options: LocalModelReplayerOptions = {},
): Replayer & { close(): Promise<void> } {
  let name: string | undefined;
  return {
    name: 'local-model',
    async replay(request: ReplayRequest): Promise<ArmOutcome> {
      name ??= `sha256:${(await model.identity()).sha256.slice(0, 12)}`;
      const result = await model.complete({
        prompt: replayPrompt(request),
        grammar: { jsonSchema: armReplySchema },
        maxTokens: options.maxTokens ?? 512,
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      if (result.stopReason !== 'grammar' && result.stopReason !== 'eos') {
        return {
          state: 'failed',
          reason: `the reply stopped at ${result.stopReason}`,
          model: name,
        };
      }
      let reply: unknown;
      try {
        reply = JSON.parse(result.text);
      } catch {
        return { state: 'failed', reason: 'the reply was not JSON', model: name };
      }
      const parsed = armOutcomeSchema.safeParse({
        state: 'ended',
        stop_cause: (reply as { end?: unknown })?.end,
        calls: ((reply as { calls?: unknown })?.calls as unknown[]) ?? [],
        drafts: ((reply as { drafts?: unknown })?.drafts as unknown[]) ?? [],
        model: name,
      });
      return parsed.success
        ? parsed.data
        : { state: 'failed', reason: 'the reply did not have the arm’s shape', model: name };
    },
    close: () => model.dispose(),
  };
}
