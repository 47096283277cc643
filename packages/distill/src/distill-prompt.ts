import type { ChatPrompt } from '@mecha/local-model';

/** What a distiller prompt is built from: the session's id, when it ran, and its bounded transcript. */
export interface DistillPromptInput {
  readonly sessionId: string;
  readonly startedAt: string;
  readonly endedAt: string;
  /** The rendered transcript, already cut to its head and tail. */
  readonly transcript: string;
}

const instructions = `You are the distiller of mecha, a personal agent. You read one finished session and write an episode for the owner's long-term memory, a knowledge graph.

The episode is what stays true after the session: what it was about, what was decided or produced, and any outcome or open thread the owner may want to recall later. Name the people, projects and organizations involved so the graph can link them. Write two to eight sentences of plain prose in the past tense. Leave out tool mechanics and step-by-step narration.

Skip freely. Smoke tests, one-line lookups, greetings, aborted or purely mechanical runs leave nothing worth remembering, and noise in the graph costs more than a gap.

Corrections: list every moment the owner told the agent that something it believed was wrong ("no, she's at Yale now", "that's the old deadline"). Give what was wrong, what is right (leave "right" out when the owner only denied it), who or what it is about, and the owner's own words that say so, quoted exactly from an "owner" line. A correction the owner's words do not carry goes to review instead of changing anything. Report corrections even when you skip the episode.

Surprises: list every moment the knowledge graph told the agent one thing and the session then found another. Say what it is about, what the graph said and what was found. A surprise proposes no fix.

Answer with one JSON object and nothing else: {"skip": true} or {"skip": false, "episode": "..."}, either one optionally with "corrections": [{"wrong": "...", "right": "...", "about": "...", "quote": "..."}] and then "surprises": [{"about": "...", "graph_said": "...", "found": "..."}].`;

/** The fixed instructions, sent as the system message. */
export const distillInstructions = instructions;

/**
 * The one prompt a session is distilled with, through the model's own chat template: the fixed
 * instructions as the system message, then the session's bounded transcript as the user's.
 * No tools and no history go with it.
 */
export function distillPrompt(input: DistillPromptInput): ChatPrompt {
  return {
    system: instructions,
    user: `Session ${input.sessionId}, from ${input.startedAt} to ${input.endedAt}:

${input.transcript}

Answer with the JSON object.`,
  };
}
