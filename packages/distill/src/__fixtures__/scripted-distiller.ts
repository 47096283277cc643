import {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
} from '@mecha/local-model';
import { factsPromptOpening } from '../extract-facts.js';

/** What the scripted distiller answers for one session. */
export type ScriptedReply = string | ((sessionId: string) => string);

/** The session id a distiller prompt is about. */
export function sessionOf(prompt: string): string {
  return /\nSession (\S+), from /.exec(prompt)?.[1] ?? 'unknown';
}

/** Whether a prompt is the follow-up question rather than the distiller's. */
export function isFollowUp(prompt: string): boolean {
  return prompt.includes('\nFollow-up question about the same session.');
}

/** Whether a prompt asks for an episode's candidate facts. */
export function isFactsPrompt(prompt: string): boolean {
  return prompt.includes(`\n${factsPromptOpening}\n`);
}

/** The episode a facts prompt shows. */
export function factsEpisodeOf(prompt: string): string {
  return (
    new RegExp(
      `\\n${factsPromptOpening}\\n\\n([\\s\\S]*)\\n\\nAnswer with the JSON object\\.`,
    ).exec(prompt)?.[1] ?? ''
  );
}

/**
 * What the scripted extractor answers: every run of two or more capitalised words in the
 * episode as a person, a relation for each "X works at Y" / "X leads Y" sentence, quoted, and
 * one entity the episode never names (which grounding drops).
 */
export function scriptedFacts(prompt: string): string {
  const episode = factsEpisodeOf(prompt);
  const names = [...episode.matchAll(/\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)+/gu)].map(
    (match) => match[0],
  );
  const relations = [
    ...episode.matchAll(
      /(\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)*) (works at|leads) (\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)*)/gu,
    ),
  ].map((match) => ({
    subject: match[1],
    predicate: match[2],
    object: match[3],
    quote: match[0],
  }));
  return JSON.stringify({
    entities: [
      ...names.map((name) => ({ name, type: 'person' })),
      { name: 'Nobody Named', type: 'person' },
    ],
    relations,
  });
}

/**
 * An appraisal answer for a prompt: one claim quoting the first owner message it shows (kept),
 * one citing a call that does not exist (dropped), and a goal mecha holds if the run named one.
 */
export function groundedAnswer(prompt: string): string {
  const owner = /\nowner \[([^\]]+)\]: (\S+ \S+)/.exec(prompt);
  const claims = [
    ...(owner === null
      ? []
      : [
          {
            text: 'The owner asked for it.',
            cite: { kind: 'owner_message', id: owner[1] },
            quote: owner[2],
          },
        ]),
    {
      text: 'An invented result.',
      cite: { kind: 'tool_result', id: 'call-404' },
      quote: 'nothing',
    },
  ];
  return JSON.stringify({
    interpretation: 'The run did what it was asked; the owner reacted to the outcome.',
    claims,
    judgments: [
      {
        goal: { kind: 'charter', id: 'replies' },
        outcome: 'went_well',
        text: 'The reply went out as asked.',
      },
    ],
    owner_wants: 'Replies drafted promptly.',
    lessons: ['Draft the reply before the deadline.'],
    prediction: 'The owner will accept this kind of output.',
    expected_act: 'no_act',
    goal: { kind: 'charter', id: 'replies' },
  });
}

/**
 * A scripted model that plays the distiller: `reply` decides each session's answer (by default
 * an episode naming the session), every follow-up gets {@link groundedAnswer}, and every facts
 * prompt {@link scriptedFacts}.
 */
export function scriptedDistiller(
  reply: ScriptedReply = (sessionId) =>
    JSON.stringify({ skip: false, episode: `Worked on ${sessionId}.` }),
  options: Pick<ScriptedModelOptions, 'msPerToken' | 'onToken'> = {},
): ScriptedModel {
  return createScriptedModel(
    (prompt) => {
      if (isFollowUp(prompt)) return groundedAnswer(prompt);
      if (isFactsPrompt(prompt)) return scriptedFacts(prompt);
      return typeof reply === 'string' ? reply : reply(sessionOf(prompt));
    },
    { name: 'distill-test', ...options },
  );
}
