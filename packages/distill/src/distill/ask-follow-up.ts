import type { ChatPrompt, CompletionRequest } from '@mecha/local-model';
import type { ParsedModelJson } from '../parse-model-json.js';
import type { DistillRun } from './distill-run.js';

/** A follow-up question's outcome: the parsed answer, a failure to count, or a stop. */
export type FollowUp<T> =
  | { readonly state: 'answered'; readonly answer: T }
  | { readonly state: 'failed' }
  | { readonly state: 'aborted' };

/**
 * Asks the model one follow-up question beside the episode (facts, a text appraisal) and parses
 * its answer. A call that must stop the run is noted on it, and an abort ends the session
 * before its push; any other failed call, or an answer that does not parse, is `failed` for
 * the caller to count while the push goes on.
 */
export async function askFollowUp<T>(
  run: DistillRun,
  prompt: string | ChatPrompt,
  request: Required<Pick<CompletionRequest, 'grammar' | 'maxTokens'>>,
  parse: (text: string) => ParsedModelJson<T>,
): Promise<FollowUp<T>> {
  const asked = await run.model.complete(prompt, request);
  if (asked._tag === 'Left') {
    const { stop } = asked.left;
    if (stop !== undefined) {
      run.stop.note(stop);
      if (stop.reason === 'aborted') return { state: 'aborted' };
    }
    return { state: 'failed' };
  }
  const parsed = parse(asked.right.text);
  return parsed.state === 'read'
    ? { state: 'answered', answer: parsed.value }
    : { state: 'failed' };
}
