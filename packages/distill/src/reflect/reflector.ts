import { createHash } from 'node:crypto';
import { type PlanningExample, verifiedByText } from '@mecha/appraisal-core';
import type { ChatPrompt } from '@mecha/local-model';
import type { DistillStop } from '../distill/distill-report.js';
import type { ModelAccess } from '../distill/model-access.js';
import type { ParsedModelJson } from '../parse-model-json.js';
import type { Correction } from './corrections.js';
import {
  isGrounded,
  judgmentGrammar,
  judgmentPrompt,
  lessonGrammar,
  lessonPrompt,
  parseJudgmentReply,
  parseLessonReply,
  promptIdentity,
} from './lesson-prompt.js';
import type {
  DeclineOnRecord,
  ReflectedCorrection,
  ReflectOptions,
  ReflectStep,
} from './reflect.js';

const hashed = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 20);

/** A lesson's id, from its correction's: the same correction always names the same lesson. */
export function lessonId(correctionId: string): string {
  return `lesson-${hashed(correctionId)}`;
}

/** What one question to the reflector came to. */
type Asked<T> =
  | { readonly state: 'answered'; readonly value: T }
  | { readonly state: 'failed'; readonly reason: string }
  | { readonly state: 'stopped'; readonly stop: DistillStop };

/** What asking about one correction came to, before the correction's own fields are added. */
export type Reflected = Omit<ReflectedCorrection, 'id' | 'kind' | 'sessionId' | 'at' | 'cite'>;

/** The model that would be asked, or why a real pass cannot tell: read only when it matters. */
export async function askerOf(
  options: ReflectOptions,
  model: ModelAccess,
  dryRun: boolean,
): Promise<string | DistillStop | undefined> {
  if (options.modelName !== undefined) return options.modelName;
  if (options.modelIdentity !== undefined) {
    try {
      return await options.modelIdentity();
    } catch (error) {
      if (dryRun) return undefined;
      return {
        reason: 'model_unavailable',
        message: `the local model cannot be used: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  return dryRun ? undefined : model.identify();
}

/**
 * The reflector of one pass: asks the model about each correction under a grammar (a follow-up
 * judged first, then the lesson), keeps what quotes the owner's words, and remembers each decline
 * so this model under this prompt is not asked again. `stopped` says why the pass stopped, once
 * it has.
 */
export class Reflector {
  stopped: DistillStop | undefined;
  /** Follow-ups this pass judged corrections. */
  judgmentsWritten = 0;

  constructor(
    private readonly options: ReflectOptions,
    private readonly model: ModelAccess,
    private readonly now: () => string,
  ) {}

  /**
   * One correction, asked: a follow-up is judged first (a judgment that quotes the owner is
   * recorded with its turn, and the lesson is asked in the same pass), then the lesson.
   * `undefined` when the pass stopped.
   */
  async reflectOn(
    correction: Correction,
    first: ReflectStep,
    example: PlanningExample | undefined,
  ): Promise<Reflected | undefined> {
    let judged: { judged: 'now' } | Record<string, never> = {};
    if (first === 'judge') {
      const verdict = await this.judge(correction);
      if (verdict !== 'judged') return verdict;
      judged = { judged: 'now' };
    }
    return this.lesson(correction, first, example, judged);
  }

  /** Judges a follow-up: `judged` once the judgment is recorded, else what it came to. */
  private async judge(correction: Correction): Promise<Reflected | undefined | 'judged'> {
    const verdict = await this.ask(
      judgmentPrompt(correction),
      judgmentGrammar(),
      parseJudgmentReply,
    );
    if (verdict.state === 'stopped') {
      this.stopped = verdict.stop;
      return undefined;
    }
    if (verdict.state === 'failed') return { outcome: 'failed', reason: verdict.reason };
    if (!verdict.value.correction) {
      const kept = await this.remember(correction, 'judge', 'not_a_correction');
      return { outcome: 'not_a_correction', ...(kept === undefined ? {} : { reason: kept }) };
    }
    if (!isGrounded(verdict.value.quote, correction.words)) {
      const kept = await this.remember(correction, 'judge', 'not_grounded');
      return {
        outcome: 'not_grounded',
        reason: `the judgment's quote is not in the owner's words${kept === undefined ? '' : `; ${kept}`}`,
      };
    }
    const message = correction.message;
    if (message === undefined) return { outcome: 'failed', reason: 'no message to cite' };
    const written = await this.options.home.learning.reflections.append([
      {
        v: 1,
        reflection_id: `judgment-${hashed(correction.id)}`,
        session_id: correction.sessionId,
        at: this.now(),
        clean: true,
        correction_turn: message.turn,
        judgment: {
          correction_id: correction.id,
          message_id: message.id,
          quote: verdict.value.quote,
          judged_by: this.model.distilledBy ?? 'unknown',
          prompt: promptIdentity.judge,
        },
      },
    ]);
    if (written._tag === 'Left') return { outcome: 'failed', reason: written.left.message };
    this.judgmentsWritten += 1;
    return 'judged';
  }

  /** Asks for the lesson and writes it when it quotes the owner's words. */
  private async lesson(
    correction: Correction,
    first: ReflectStep,
    example: PlanningExample | undefined,
    judged: { judged: 'now' } | Record<string, never>,
  ): Promise<Reflected | undefined> {
    const reply = await this.ask(
      lessonPrompt(correction, example),
      lessonGrammar(),
      parseLessonReply,
    );
    if (reply.state === 'stopped') {
      this.stopped = reply.stop;
      // A judgment written before the stop stands; its lesson is asked next pass.
      return first === 'judge'
        ? { outcome: 'failed', reason: reply.stop.message, ...judged }
        : undefined;
    }
    if (reply.state === 'failed') return { outcome: 'failed', reason: reply.reason, ...judged };
    if (reply.value.skip) {
      const kept = await this.remember(correction, 'lesson', 'nothing_to_learn');
      return {
        outcome: 'nothing_to_learn',
        ...(kept === undefined ? {} : { reason: kept }),
        ...judged,
      };
    }
    if (!isGrounded(reply.value.quote, correction.words)) {
      const kept = await this.remember(correction, 'lesson', 'not_grounded');
      return {
        outcome: 'not_grounded',
        reason: `the lesson's quote is not in the owner's words${kept === undefined ? '' : `; ${kept}`}`,
        ...judged,
      };
    }
    const id = lessonId(correction.id);
    const written = await this.options.home.learning.reflections.append([
      {
        v: 1,
        reflection_id: id,
        session_id: correction.sessionId,
        at: this.now(),
        clean: true,
        lesson: {
          correction_id: correction.id,
          correction: correction.kind,
          cite: correction.cite,
          text: reply.value.lesson,
          quote: reply.value.quote,
          ...(example === undefined
            ? {}
            : {
                contrast: {
                  session_id: example.session_id,
                  verified_by: verifiedByText(example),
                  trace: example.trace,
                },
              }),
          reflected_by: this.model.distilledBy ?? 'unknown',
          prompt: promptIdentity.lesson,
        },
      },
    ]);
    if (written._tag === 'Left') {
      return { outcome: 'failed', reason: written.left.message, ...judged };
    }
    return { outcome: 'written', lessonId: id, lesson: reply.value.lesson, ...judged };
  }

  /** Asks the reflector one question under its grammar, and parses the answer. */
  private async ask<T>(
    prompt: ChatPrompt,
    gbnf: string,
    parse: (text: string) => ParsedModelJson<T>,
  ): Promise<Asked<T>> {
    const asked = await this.model.complete(prompt, {
      grammar: { gbnf },
      maxTokens: this.options.maxTokens ?? 1_024,
    });
    if (asked._tag === 'Left') {
      return asked.left.stop === undefined
        ? { state: 'failed', reason: asked.left.message }
        : { state: 'stopped', stop: asked.left.stop };
    }
    const reply = parse(asked.right.text);
    return reply.state === 'read'
      ? { state: 'answered', value: reply.value }
      : { state: 'failed', reason: reply.reason };
  }

  /** Remembers a decline, so this model under this prompt is not asked again. */
  private async remember(
    correction: Correction,
    declined: ReflectStep,
    outcome: DeclineOnRecord['outcome'],
  ): Promise<string | undefined> {
    const by = this.model.distilledBy ?? 'unknown';
    const prompt = promptIdentity[declined];
    const written = await this.options.home.learning.reflections.append([
      {
        v: 1,
        reflection_id: `declined-${hashed(`${correction.id}\u0000${declined}\u0000${by}\u0000${prompt}`)}`,
        session_id: correction.sessionId,
        at: this.now(),
        clean: true,
        declined: {
          correction_id: correction.id,
          step: declined,
          outcome,
          asked_with: { model: by, prompt },
        },
      },
    ]);
    return written._tag === 'Left'
      ? `not remembered (${written.left.message}): asked again next pass`
      : undefined;
  }
}
