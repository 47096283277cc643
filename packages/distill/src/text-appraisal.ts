import { randomBytes } from 'node:crypto';
import {
  type ExpectedAct,
  expectedActSchema,
  type GoalJudgment,
  type GoalRef,
  goalOutcomeSchema,
  goalRefSchema,
  idSchema,
  type Taint,
  type TranscriptEvent,
  type textAppraisalRecordSchema,
} from '@mecha/appraisal-core';
import type { ChatPrompt, JsonSchema } from '@mecha/local-model';
import { z } from 'zod';
import {
  type ClaimDropReason,
  claimReferents,
  type GroundedClaims,
  groundClaims,
} from './ground-claims.js';
import { type ParsedModelJson, parseModelJson } from './parse-model-json.js';
import { type GoalDirectory, resolveGoal } from './resolve-goal.js';

/** How long each part of a text appraisal may be (characters) and how many claims it may make. */
export interface AppraisalBounds {
  readonly interpretation: number;
  readonly claims: number;
  readonly claimText: number;
  readonly quote: number;
  readonly id: number;
  readonly prediction: number;
  /** Per-goal judgments, and how long each may be. */
  readonly judgments: number;
  readonly judgmentText: number;
  /** What the owner's reactions suggest they want. */
  readonly ownerWants: number;
  /** Lessons, and how long each may be. */
  readonly lessons: number;
  readonly lesson: number;
}

/** The bounds the follow-up question is asked with. */
export const defaultAppraisalBounds: AppraisalBounds = {
  interpretation: 1_200,
  claims: 5,
  claimText: 240,
  quote: 160,
  id: 128,
  prediction: 300,
  judgments: 4,
  judgmentText: 300,
  ownerWants: 300,
  lessons: 3,
  lesson: 200,
};

const goalKinds = ['charter', 'task', 'project', 'trigger', 'request'] as const;

/**
 * The JSON schema the follow-up answer is decoded under: prose, cited claims, a judgment per
 * goal the session bore on, what the owner's reactions suggest, lessons, a prediction, the
 * expected act, and the goal (or null). Every string and list is bounded.
 */
export function appraisalGrammarSchema(
  bounds: AppraisalBounds = defaultAppraisalBounds,
): JsonSchema {
  const goal = {
    oneOf: [
      { type: 'null' },
      {
        type: 'object',
        properties: {
          kind: { enum: goalKinds },
          id: { type: 'string', minLength: 1, maxLength: bounds.id },
        },
      },
    ],
  };
  return {
    type: 'object',
    properties: {
      interpretation: { type: 'string', minLength: 1, maxLength: bounds.interpretation },
      claims: {
        type: 'array',
        maxItems: bounds.claims,
        items: {
          type: 'object',
          properties: {
            text: { type: 'string', minLength: 1, maxLength: bounds.claimText },
            cite: {
              type: 'object',
              properties: {
                kind: { enum: ['tool_result', 'owner_message'] },
                id: { type: 'string', minLength: 1, maxLength: bounds.id },
              },
            },
            quote: { type: 'string', maxLength: bounds.quote },
          },
        },
      },
      judgments: {
        type: 'array',
        maxItems: bounds.judgments,
        items: {
          type: 'object',
          properties: {
            goal,
            outcome: { enum: goalOutcomeSchema.options },
            text: { type: 'string', minLength: 1, maxLength: bounds.judgmentText },
          },
        },
      },
      owner_wants: { type: 'string', maxLength: bounds.ownerWants },
      lessons: {
        type: 'array',
        maxItems: bounds.lessons,
        items: { type: 'string', minLength: 1, maxLength: bounds.lesson },
      },
      prediction: { type: 'string', maxLength: bounds.prediction },
      expected_act: { enum: expectedActSchema.options },
      goal,
    },
  };
}

const answerSchema = z.object({
  interpretation: z.string().min(1),
  claims: z.array(
    z.object({
      text: z.string(),
      cite: z.object({ kind: z.enum(['tool_result', 'owner_message']), id: z.string() }),
      quote: z.string(),
    }),
  ),
  // Absent in answers from before these were asked for (and from scripts that leave them out).
  judgments: z
    .array(
      z.object({
        goal: z.object({ kind: z.enum(goalKinds), id: z.string() }).nullable(),
        outcome: goalOutcomeSchema,
        text: z.string(),
      }),
    )
    .default([]),
  owner_wants: z.string().default(''),
  lessons: z.array(z.string()).default([]),
  prediction: z.string(),
  expected_act: expectedActSchema,
  goal: z.object({ kind: z.enum(goalKinds), id: z.string() }).nullable(),
});

/** The follow-up answer as parsed, before its claims are grounded and its goal resolved. */
export type AppraisalAnswer = z.infer<typeof answerSchema>;

const followUp = `Follow-up question about the same session. Appraise it for mecha's own record: in prose, say what happened relative to what the run was for, why, whether it went well or badly for each goal it bore on, what to expect next time, and what the owner's reactions suggest they want.

Every factual claim must cite what the run received: the result of a tool call (kind "tool_result", its id in brackets after "result") or one of the owner's own messages (kind "owner_message", its id in brackets after "owner"), and quote it word for word. The agent's own words are never evidence.

For each goal the session bore on, judge whether it went well or badly for that goal: went_well, went_badly, mixed or unclear, with a sentence on why. Say in a sentence or two what the owner's reactions suggest they want, and give up to three lessons for next time.

Give the act you expect from the owner with this kind of output next time: released_unchanged, edited, rejected, closed, reopened or no_act. Name a goal as {"kind": "charter" | "task" | "project" | "trigger" | "request", "id": "..."}, or null when it is none you can name; "goal" is the one the session served.

Answer with one JSON object: {"interpretation": "...", "claims": [{"text": "...", "cite": {"kind": "...", "id": "..."}, "quote": "..."}], "judgments": [{"goal": null, "outcome": "...", "text": "..."}], "owner_wants": "...", "lessons": ["..."], "prediction": "...", "expected_act": "...", "goal": null}.`;

/** The follow-up question's own text, for measuring it in tokens. */
export const followUpQuestion = followUp;

/**
 * The follow-up question, asked on the episode's own conversation: the distiller's prompt and
 * its reply as the earlier turn, then the question. Nothing else is added.
 */
export function appraisalPrompt(
  distillPrompt: ChatPrompt,
  distillReply: string,
  earlierAppraisals: readonly string[] = [],
): ChatPrompt {
  const earlier =
    earlierAppraisals.length === 0
      ? ''
      : `\n\nEarlier appraisals of clean sessions in the same situation and toward the same goal, newest first (to compare with; they are not evidence about this session):\n${earlierAppraisals.join('\n')}`;
  return {
    system: distillPrompt.system,
    earlier: [...(distillPrompt.earlier ?? []), { user: distillPrompt.user, model: distillReply }],
    user: `${followUp}${earlier}`,
  };
}

/** A follow-up answer parsed, or why it could not be. */
export type ParsedAppraisal = ParsedModelJson<AppraisalAnswer>;

/** Parses the follow-up answer's text. */
export function parseAppraisalAnswer(text: string): ParsedAppraisal {
  return parseModelJson(text, answerSchema);
}

/** A text appraisal record as written to `appraisals/appraisals.jsonl`. */
export type TextAppraisalInput = z.input<typeof textAppraisalRecordSchema>;

/** A text appraisal ready to store, and what grounding and goal resolution made of it. */
export interface TextAppraisal {
  readonly record: TextAppraisalInput;
  readonly claims: GroundedClaims;
  readonly goalUnresolved: boolean;
}

/** What a text appraisal is built from besides the answer. */
export interface TextAppraisalContext {
  readonly sessionId: string;
  readonly at: string;
  readonly taint: Taint;
  readonly events: readonly TranscriptEvent[];
  readonly directory: GoalDirectory;
  /** Mints the record's id; random by default. */
  readonly newId?: () => string;
}

/**
 * Turns a follow-up answer into the record kept in `appraisals/appraisals.jsonl`: claims whose
 * quote is not in what they cite are dropped and counted by reason; a goal mecha does not hold
 * is recorded as none and flagged; the session's taint is carried as is.
 */
export function buildTextAppraisal(
  answer: AppraisalAnswer,
  context: TextAppraisalContext,
): TextAppraisal {
  const claims = groundClaims(
    answer.claims.map((claim) => ({ text: claim.text, cite: claim.cite, quote: claim.quote })),
    claimReferents(context.events),
  );
  // A claim may only cite an id the harness minted; anything else names no referent at all.
  const kept = claims.kept.filter((claim) => idSchema.safeParse(claim.cite.id).success);
  const dropped: Partial<Record<ClaimDropReason, number>> = { ...claims.dropped };
  if (kept.length < claims.kept.length) {
    dropped.no_such_referent = (dropped.no_such_referent ?? 0) + claims.kept.length - kept.length;
  }
  const held = (named: AppraisalAnswer['goal']): GoalRef | undefined => {
    const parsed = goalRefSchema.safeParse(named);
    return parsed.success ? resolveGoal(parsed.data, context.directory) : undefined;
  };
  let goal: GoalRef | undefined;
  let goalUnresolved = false;
  if (answer.goal !== null) {
    goal = held(answer.goal);
    goalUnresolved = goal === undefined;
  }
  // A judgment's goal must be one mecha holds; any other is kept as no goal and counted.
  let judgmentGoalsUnresolved = 0;
  const judgments: GoalJudgment[] = [];
  for (const judgment of answer.judgments) {
    const text = judgment.text.trim();
    if (text === '') continue;
    const resolved = judgment.goal === null ? undefined : held(judgment.goal);
    if (judgment.goal !== null && resolved === undefined) judgmentGoalsUnresolved += 1;
    judgments.push({
      ...(resolved === undefined ? {} : { goal: resolved }),
      outcome: judgment.outcome,
      text,
    });
  }
  const lessons = answer.lessons.map((lesson) => lesson.trim()).filter((lesson) => lesson !== '');
  const ownerWants = answer.owner_wants.trim();
  const expected: ExpectedAct = answer.expected_act;
  const droppedCounts: Record<string, number> = {};
  for (const [reason, count] of Object.entries(dropped)) droppedCounts[reason] = count;
  const record: TextAppraisalInput = {
    v: 1,
    appraisal_id: (context.newId ?? newAppraisalId)(),
    session_id: context.sessionId,
    at: context.at,
    taint: context.taint,
    expected_act: expected,
    interpretation: answer.interpretation,
    claims_kept: kept.length,
    claims_dropped: droppedCounts,
    goal_unresolved: goalUnresolved,
    claims: kept.map((claim) => ({ text: claim.text, cite: claim.cite, quote: claim.quote })),
    ...(answer.prediction.trim() === '' ? {} : { prediction: answer.prediction }),
    ...(goal === undefined ? {} : { goal }),
    ...(judgments.length === 0 ? {} : { judgments }),
    ...(judgmentGoalsUnresolved === 0
      ? {}
      : { judgment_goals_unresolved: judgmentGoalsUnresolved }),
    ...(ownerWants === '' ? {} : { owner_wants: ownerWants }),
    ...(lessons.length === 0 ? {} : { lessons }),
  };
  return { record, claims: { kept, dropped }, goalUnresolved };
}

function newAppraisalId(): string {
  return `appr-${randomBytes(6).toString('hex')}`;
}
