import { createScriptedModel, type ScriptedModel } from '@mecha/local-model';

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
    prediction: 'The owner will accept this kind of output.',
    expected_act: 'no_act',
    goal: { kind: 'charter', id: 'replies' },
  });
}

/**
 * A scripted model that plays the distiller: `reply` decides each session's answer (by default
 * an episode naming the session), and every follow-up gets {@link groundedAnswer}.
 */
export function scriptedDistiller(
  reply: ScriptedReply = (sessionId) =>
    JSON.stringify({ skip: false, episode: `Worked on ${sessionId}.` }),
  options: { readonly msPerToken?: number } = {},
): ScriptedModel {
  return createScriptedModel(
    (prompt) => {
      if (isFollowUp(prompt)) return groundedAnswer(prompt);
      return typeof reply === 'string' ? reply : reply(sessionOf(prompt));
    },
    { name: 'distill-test', ...options },
  );
}
