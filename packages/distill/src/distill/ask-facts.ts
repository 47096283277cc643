import {
  factsPrompt,
  type GroundedFacts,
  groundFacts,
  parseFactsAnswer,
} from '../extract-facts.js';
import { askFollowUp } from './ask-follow-up.js';
import type { DistillRun } from './distill-run.js';

/** The extraction's answer: facts to send, none (the graph's own extractor then reads the prose), or a stop. */
export type FactsStep =
  | { readonly state: 'extracted'; readonly facts: GroundedFacts | undefined }
  | { readonly state: 'aborted' };

/**
 * Asks the model for an episode's candidate facts under the facts grammar, on the episode alone
 * (a conversation of its own), and grounds the answer in the episode's words. Off, a failed
 * call or an answer that does not parse sends no facts and is counted; an abort stops the
 * session before its push.
 */
export async function askFacts(
  run: DistillRun,
  index: number,
  sessionId: string,
  episode: string,
): Promise<FactsStep> {
  if (run.options.extractFacts === false) return { state: 'extracted', facts: undefined };
  run.progress(index, sessionId, 'extracting');
  const asked = await askFollowUp(
    run,
    factsPrompt(episode),
    { grammar: run.factsGrammar, maxTokens: run.options.factsMaxTokens ?? 1_024 },
    parseFactsAnswer,
  );
  if (asked.state === 'aborted') return asked;
  if (asked.state === 'failed') {
    run.tally.facts.failed += 1;
    return { state: 'extracted', facts: undefined };
  }
  return { state: 'extracted', facts: groundFacts(asked.answer, episode) };
}
