import { type PlanningExample, stripControl, verifiedByText } from '@mecha/appraisal-core';
import type { ChatPrompt } from '@mecha/local-model';
import { z } from 'zod';
import { comparable } from '../ground-corrections.js';
import { type ParsedModelJson, parseModelJson } from '../parse-model-json.js';
import type { Correction } from './corrections.js';

/** How long a lesson and its quote may be, in characters. */
export const lessonBounds = { lesson: 400, quote: 300 } as const;

const field = (name: string) => `"\\"${name}\\"" ws ":" ws`;

/**
 * The GBNF grammar a reflector reply is decoded under: `{"skip": true}` when the owner's words
 * carry no lesson, or `{"skip": false, "lesson": "…", "quote": "…"}`. Both strings are bounded,
 * so a reply always closes before the token budget.
 */
export function lessonGrammar(): string {
  return [
    `root ::= "{" ws ${field('skip')} ( "true" | "false" ws "," ws ${field('lesson')} lesson ws "," ws ${field('quote')} quote ) ws "}"`,
    `lesson ::= "\\"" char{1,${lessonBounds.lesson}} "\\""`,
    `quote ::= "\\"" char{1,${lessonBounds.quote}} "\\""`,
    `char ::= [^"\\\\\\x00-\\x1F\\x7F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F]{4} )`,
    'ws ::= " "?',
    '',
  ].join('\n');
}

const replySchema = z.union([
  z.object({ skip: z.literal(true) }),
  z.object({
    skip: z.literal(false),
    lesson: z.string().min(1).max(lessonBounds.lesson),
    quote: z.string().min(1).max(lessonBounds.quote),
  }),
]);

/** A reflector reply: nothing to learn, or a lesson and the owner's words it rests on. */
export type LessonReply = z.infer<typeof replySchema>;

/** Parses a reflector reply; an answer that is not the grammar's JSON is a reason, not a throw. */
export function parseLessonReply(text: string): ParsedModelJson<LessonReply> {
  return parseModelJson(text, replySchema);
}

/** Whether a lesson's quote is found in the owner's words for its correction (whitespace free). */
export function isGrounded(quote: string, words: string): boolean {
  const said = comparable(quote);
  return said !== '' && comparable(words).includes(said);
}

/** The act, in fixed words: the only thing the reflector is told about what the owner did. */
export function actText(correction: Correction): string {
  switch (correction.kind) {
    case 'steer':
      return 'The owner stepped in while the agent was working and said:';
    case 'rejection':
      return `The owner rejected a draft the agent wrote for ${correction.situation.tools[0] ?? 'a tool'}, and said why:`;
    case 'reopen':
      return 'The owner reopened a task the agent had closed as done, and said why:';
  }
}

const system = [
  'You write one lesson for an AI agent from a correction its owner made.',
  "The lesson says what the agent should do differently next time, in one or two plain sentences addressed to the agent. It rests only on the owner's words.",
  "quote is the part of the owner's words the lesson rests on, copied exactly.",
  'When the words carry nothing to learn (a greeting, a thank-you, a question with no complaint), answer {"skip": true}.',
  'Answer with JSON only.',
].join('\n');

/**
 * The reflector's prompt: the act in fixed words, the owner's words, the tools the correction
 * was about, and, with contrast evidence, the one verified success in the same situation as its
 * verifying act in fixed words and the order of tools that session called. Nothing else of
 * either session is shown.
 */
export function lessonPrompt(
  correction: Correction,
  contrast: PlanningExample | undefined,
): ChatPrompt {
  const lines = [actText(correction), '', `"""${stripControl(correction.words)}"""`];
  if (correction.situation.tools.length > 0) {
    lines.push(
      '',
      `The tools the agent had called before: ${correction.situation.tools.join(', ')}.`,
    );
  }
  if (contrast !== undefined) {
    lines.push(
      '',
      `For contrast, a run in the same situation that the owner verified (${verifiedByText(contrast)}) called these tools in this order: ${contrast.trace}. That is a call trace, not a plan.`,
    );
  }
  return { system, user: lines.join('\n') };
}
