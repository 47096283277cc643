import { createHash } from 'node:crypto';
import { type PlanningExample, stripControl, verifiedByText } from '@mecha/appraisal-core';
import type { ChatPrompt } from '@mecha/local-model';
import { z } from 'zod';
import { comparable } from '../ground-corrections.js';
import { type ParsedModelJson, parseModelJson } from '../parse-model-json.js';
import type { Correction } from './corrections.js';

/** How long a lesson and its quote may be, in characters. */
export const lessonBounds = { lesson: 400, quote: 300 } as const;

const field = (name: string) => `"\\"${name}\\"" ws ":" ws`;

/** The rules both reflector grammars end with: a JSON string character, and optional space. */
const shared = [
  `char ::= [^"\\\\\\x00-\\x1F\\x7F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F]{4} )`,
  'ws ::= " "?',
  '',
];

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
    ...shared,
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
    case 'follow_up':
      return "The agent's run had ended; the owner's next message corrected it:";
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

/** How long a judgment's quote may be, in characters. */
export const judgmentBounds = { quote: 300 } as const;

/**
 * The GBNF grammar a judgment of a follow-up is decoded under: `{"correction": false}`, or
 * `{"correction": true, "quote": "…"}` with the owner's words that make it one (bounded).
 */
export function judgmentGrammar(): string {
  return [
    `root ::= "{" ws ${field('correction')} ( "false" | "true" ws "," ws ${field('quote')} quote ) ws "}"`,
    `quote ::= "\\"" char{1,${judgmentBounds.quote}} "\\""`,
    ...shared,
  ].join('\n');
}

const judgmentSchema = z.union([
  z.object({ correction: z.literal(false) }),
  z.object({ correction: z.literal(true), quote: z.string().min(1).max(judgmentBounds.quote) }),
]);

/** A judgment of a follow-up: not a correction, or a correction and the words that make it one. */
export type JudgmentReply = z.infer<typeof judgmentSchema>;

/** Parses a judgment; an answer that is not the grammar's JSON is a reason, not a throw. */
export function parseJudgmentReply(text: string): ParsedModelJson<JudgmentReply> {
  return parseModelJson(text, judgmentSchema);
}

const judgeSystem = [
  "You judge whether an owner's message to an AI agent is a correction.",
  "The agent's run had ended, and this is the owner's next message.",
  'It is a correction when it says the agent did something wrong, missed something, or should do something differently.',
  'A new request, a question, a thank-you or a greeting is not a correction.',
  "When it is one, quote is the part of the owner's words that says so, copied exactly.",
  'Answer with JSON only.',
].join('\n');

/**
 * The judge's prompt: the owner's next message after a run ended, and the tools that run had
 * called. Nothing else of the session is shown.
 */
export function judgmentPrompt(correction: Correction): ChatPrompt {
  const lines = ['The owner wrote:', '', `"""${stripControl(correction.words)}"""`];
  if (correction.situation.tools.length > 0) {
    lines.push(
      '',
      `The tools the agent had called in that run: ${correction.situation.tools.join(', ')}.`,
    );
  }
  return { system: judgeSystem, user: lines.join('\n') };
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/**
 * Which prompt asked, by step: a digest of its instructions and grammar, so a changed prompt
 * is a new asker and what an old one declined is asked again.
 */
export const promptIdentity = {
  judge: `judge-${digest(`${judgeSystem}\n${judgmentGrammar()}`)}`,
  lesson: `lesson-${digest(`${system}\n${lessonGrammar()}`)}`,
} as const;
