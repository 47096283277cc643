import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  contrastFor,
  type PlanningExample,
  successes,
  verifiedByText,
} from '@mecha/appraisal-core';
import type { ChatPrompt } from '@mecha/local-model';
import {
  configIssueText,
  homePorts,
  type MechaHome,
  refuseMissingHome,
  withLock,
} from '@mecha/stores';
import type { ModelSource } from '../distill/distill-options.js';
import type { DistillStop } from '../distill/distill-report.js';
import { ModelAccess } from '../distill/model-access.js';
import type { ParsedModelJson } from '../parse-model-json.js';
import {
  type Correction,
  type CorrectionKind,
  ownerCorrections,
  type SessionFacts,
  sessionFacts,
} from './corrections.js';
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

/** What became of one correction in a pass. */
export type CorrectionOutcome =
  /** A dry run: it would be reflected on. */
  | 'would_reflect'
  /** A dry run: a follow-up the model would judge (and reflect on, if it judges it a correction). */
  | 'would_judge'
  /** A lesson was written to `learning/reflections.jsonl`. */
  | 'written'
  /** The model's quote (a lesson's or a judgment's) is not in the owner's words: nothing kept. */
  | 'not_grounded'
  /** The model found nothing to learn in the owner's words: nothing written. */
  | 'nothing_to_learn'
  /** The model judged a follow-up no correction. */
  | 'not_a_correction'
  /**
   * The same model under the same prompt declined it before (one of the three above, on
   * record): not asked again. Another model or prompt asks again.
   */
  | 'declined'
  /** A session it comes from read third-party content, or could not be read whole. */
  | 'not_clean'
  /** The owner said nothing with it (a steer with no message after it). */
  | 'no_words'
  /** A lesson from it is on record already. */
  | 'on_record'
  /** The model call failed, or its answer did not parse. */
  | 'failed';

/** A step of the reflector: judging a follow-up, or writing a lesson. */
export type ReflectStep = 'judge' | 'lesson';

/** A decline on record: what the reflector answered, which model and prompt, and when. */
export interface DeclineOnRecord {
  readonly step: ReflectStep;
  readonly outcome: 'not_a_correction' | 'not_grounded' | 'nothing_to_learn';
  readonly model: string;
  readonly prompt: string;
  readonly at: string;
}

/** The verified success a correction was shown: its verifying act in fixed words, and its trace. */
export interface ContrastShown {
  readonly sessionId: string;
  readonly verifiedBy: string;
  readonly trace: string;
}

/** One correction as the pass saw it, ready to print. */
export interface ReflectedCorrection {
  readonly id: string;
  readonly kind: CorrectionKind;
  readonly sessionId: string;
  readonly at: string;
  readonly cite: Correction['cite'];
  readonly outcome: CorrectionOutcome;
  /**
   * The success it was (or would be) shown beside: `null` when contrast evidence is on and no
   * success qualifies, absent when contrast evidence is off or the correction is not reflected on.
   */
  readonly contrast?: ContrastShown | null;
  readonly lessonId?: string;
  readonly lesson?: string;
  readonly reason?: string;
  /**
   * For a follow-up the reflector judged a correction: `now` when this pass recorded the
   * judgment (it signs the run), `on_record` when an earlier pass did.
   */
  readonly judged?: 'now' | 'on_record';
  /** For `declined`: the decline on record that stands. */
  readonly declined?: DeclineOnRecord;
}

/** What a reflect pass did. */
export interface ReflectReport {
  readonly dryRun: boolean;
  /** `[agent] contrast_evidence`: whether each correction is shown a verified success. */
  readonly contrastEvidence: boolean;
  readonly corrections: readonly ReflectedCorrection[];
  readonly counts: Readonly<Record<CorrectionOutcome, number>>;
  /** The sources that could not be read whole (the corrections may be short). */
  readonly unread: readonly string[];
  readonly modelCalls: number;
  /** Follow-ups this pass judged corrections (each recorded with its turn: it signs the run). */
  readonly judgmentsWritten: number;
  readonly stopped?: DistillStop;
}

/** A pass's result: the report, or why it could not run at all. */
export type ReflectResult =
  | { readonly state: 'ran'; readonly report: ReflectReport }
  | {
      readonly state: 'cannot_run';
      readonly reason: 'no_home' | 'config' | 'busy' | 'unreadable';
      readonly message: string;
    };

/** Options of one reflect pass. */
export interface ReflectOptions {
  readonly home: MechaHome;
  readonly model: ModelSource;
  /** List each correction and the success it would be shown: no model, nothing written. */
  readonly dryRun?: boolean;
  /** Reflect on no more than this many corrections, oldest first. */
  readonly limit?: number;
  readonly signal?: AbortSignal;
  /** Names the model in each lesson's `reflected_by`; `sha256:<file digest>` by default. */
  readonly modelName?: string;
  /**
   * The model's name as `reflected_by` spells it, learnt without loading the model (the CLI
   * hashes the GGUF file). A pass needs it to tell whether a decline on record was this model's;
   * without it the model is made to be asked its identity.
   */
  readonly modelIdentity?: () => Promise<string>;
  /** Token budget of one reflector call; 1,024 by default (room for the grammar's longest reply). */
  readonly maxTokens?: number;
  readonly onProgress?: (done: number, total: number) => void;
  /** The clock lessons are stamped with; the system clock by default. */
  readonly clock?: () => Date;
}

/** The lock one reflect pass holds, so two never write a lesson for the same correction. */
export const reflectLockFile = 'reflect.lock';

const outcomes: readonly CorrectionOutcome[] = [
  'would_reflect',
  'would_judge',
  'written',
  'not_grounded',
  'nothing_to_learn',
  'not_a_correction',
  'declined',
  'not_clean',
  'no_words',
  'on_record',
  'failed',
];

const hashed = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 20);

/** A lesson's id, from its correction's: the same correction always names the same lesson. */
export function lessonId(correctionId: string): string {
  return `lesson-${hashed(correctionId)}`;
}

interface Materials {
  readonly corrections: readonly Correction[];
  readonly examples: readonly PlanningExample[];
  readonly reflected: ReadonlySet<string>;
  /** Follow-ups judged corrections, by correction id. */
  readonly judged: ReadonlySet<string>;
  /** The declines on record, by correction id, oldest first. */
  readonly declined: ReadonlyMap<string, readonly DeclineOnRecord[]>;
  readonly unread: readonly string[];
}

async function readMaterials(
  home: MechaHome,
  contrastEvidence: boolean,
): Promise<Materials | { unreadable: string }> {
  const sessions = new Map<string, SessionFacts>();
  const unread: string[] = [];
  const listing = await home.sessions.scan({
    population: 'every',
    visit: (member, transcript) => {
      if (transcript.state === 'unreadable') unread.push(`session ${member.sessionId}`);
      else if (transcript.state === 'partial') unread.push(`session ${member.sessionId} (partly)`);
      sessions.set(member.sessionId, sessionFacts(member.sessionId, transcript));
    },
  });
  if (listing.state === 'unreadable') return { unreadable: `the session store: ${listing.reason}` };
  if (listing.state === 'partial') unread.push('the session list (partly)');
  const [outbox, closures, reflections, readout] = await Promise.all([
    home.outbox.read(),
    home.closures.read(),
    home.learning.reflections.read(),
    // The verified successes are a second pass over every transcript: read only when shown.
    contrastEvidence ? successes(homePorts(home), { examples: true }) : undefined,
  ]);
  // Without the reflections on record, a second lesson could be written for one correction.
  if (reflections.state === 'unreadable') {
    return { unreadable: `learning/reflections.jsonl: ${reflections.reason}` };
  }
  if (reflections.state === 'partial') unread.push('learning/reflections.jsonl (partly)');
  for (const [name, read] of [
    ['the outbox', outbox],
    ['closures/closures.jsonl', closures],
  ] as const) {
    if (read.state === 'unreadable') unread.push(`${name}: ${read.reason}`);
    else if (read.state === 'partial') unread.push(`${name} (partly)`);
  }
  if (readout?.partial === true) unread.push('the verified successes (partly)');
  const reflected = new Set<string>();
  const judged = new Set<string>();
  const declined = new Map<string, DeclineOnRecord[]>();
  for (const record of reflections.records) {
    if (record.lesson !== undefined) reflected.add(record.lesson.correction_id);
    if (record.judgment !== undefined) judged.add(record.judgment.correction_id);
    if (record.declined !== undefined) {
      const { correction_id, step, outcome, asked_with } = record.declined;
      const list = declined.get(correction_id) ?? [];
      list.push({
        step,
        outcome,
        model: asked_with.model,
        prompt: asked_with.prompt,
        at: record.at,
      });
      declined.set(correction_id, list);
    }
  }
  return {
    corrections: ownerCorrections({
      sessions,
      outbox: outbox.state === 'unreadable' ? [] : outbox.records,
      closures: closures.state === 'unreadable' ? [] : closures.records,
    }),
    examples: readout?.examples ?? [],
    reflected,
    judged,
    declined,
    unread,
  };
}

function contrastOf(example: PlanningExample | undefined): ContrastShown | null {
  if (example === undefined) return null;
  return {
    sessionId: example.session_id,
    verifiedBy: verifiedByText(example),
    trace: example.trace,
  };
}

/**
 * `mecha reflect`: each correction the owner made (a steer, a draft rejected with a reason, a
 * reopen with a reason) from a clean session becomes a lesson the local model writes under a
 * grammar, kept in `learning/reflections.jsonl` with its provenance, only when the lesson quotes
 * the owner's own words for it. With `[agent] contrast_evidence`, the model is also shown one
 * verified success from the same situation (`contrastFor`). A lesson is written once per
 * correction; a pass over an unchanged home calls no model. Lessons never sign a run.
 */
export async function reflect(options: ReflectOptions): Promise<ReflectResult> {
  const present = refuseMissingHome(options.home);
  if (present._tag === 'Left') {
    return { state: 'cannot_run', reason: 'no_home', message: present.left.message };
  }
  const config = options.home.readConfig();
  if (config._tag === 'Left') {
    return {
      state: 'cannot_run',
      reason: 'config',
      message: `config.toml has problems: ${config.left.map(configIssueText).join('; ')}`,
    };
  }
  const contrastEvidence = config.right.agent.contrast_evidence;
  const held = await withLock(
    join(options.home.path, reflectLockFile),
    () => pass(options, contrastEvidence),
    { timeoutMs: 0 },
  );
  if (held._tag === 'Right') return held.right;
  return {
    state: 'cannot_run',
    reason: 'busy',
    message:
      held.left.kind === 'lock_timeout'
        ? `another reflect pass is running, so this one did nothing (${held.left.message})`
        : held.left.message,
  };
}

/** The step a correction is at: a follow-up not yet judged a correction is judged first. */
function stepOf(correction: Correction, judged: ReadonlySet<string>): ReflectStep {
  return correction.kind === 'follow_up' && !judged.has(correction.id) ? 'judge' : 'lesson';
}

/**
 * The decline that stands for a correction's step, so it is not asked again: the newest one on
 * record for that step under the step's current prompt, by `model`, or by any model when
 * `model` is undefined (a dry run that does not know which model would be asked). A decline
 * under another prompt, or by another model, never stands.
 */
export function standingDecline(
  declines: readonly DeclineOnRecord[],
  step: ReflectStep,
  model: string | undefined,
): DeclineOnRecord | undefined {
  let standing: DeclineOnRecord | undefined;
  for (const decline of declines) {
    if (decline.step !== step || decline.prompt !== promptIdentity[step]) continue;
    if (model !== undefined && decline.model !== model) continue;
    if (standing === undefined || Date.parse(decline.at) >= Date.parse(standing.at)) {
      standing = decline;
    }
  }
  return standing;
}

/** What one question to the reflector came to. */
type Asked<T> =
  | { readonly state: 'answered'; readonly value: T }
  | { readonly state: 'failed'; readonly reason: string }
  | { readonly state: 'stopped'; readonly stop: DistillStop };

/** The model that would be asked, or why a real pass cannot tell: read only when it matters. */
async function askerOf(
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

async function pass(options: ReflectOptions, contrastEvidence: boolean): Promise<ReflectResult> {
  const materials = await readMaterials(options.home, contrastEvidence);
  if ('unreadable' in materials) {
    return {
      state: 'cannot_run',
      reason: 'unreadable',
      message: `cannot reflect: ${materials.unreadable} could not be read`,
    };
  }
  const dryRun = options.dryRun === true;
  const model = new ModelAccess(options.model, {
    ...(options.modelName === undefined ? {} : { modelName: options.modelName }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const now = () => (options.clock?.() ?? new Date()).toISOString();
  const results: ReflectedCorrection[] = [];
  let stopped: DistillStop | undefined;
  let judgmentsWritten = 0;
  const declinesOf = (correction: Correction) => materials.declined.get(correction.id) ?? [];
  const step = (correction: Correction) => stepOf(correction, materials.judged);
  const open = materials.corrections.filter(
    (correction) =>
      !materials.reflected.has(correction.id) && correction.clean && correction.words.trim() !== '',
  );
  try {
    // Whose declines stand is asked only when one could: an unchanged home loads no model.
    let asker: string | undefined;
    if (open.some((c) => standingDecline(declinesOf(c), step(c), undefined) !== undefined)) {
      const named = await askerOf(options, model, dryRun);
      if (typeof named === 'object') stopped = named;
      else asker = named;
    }
    const todo = open.filter(
      (correction) =>
        standingDecline(declinesOf(correction), step(correction), asker) === undefined,
    );
    const chosen = new Set(
      todo.slice(0, options.limit ?? todo.length).map((correction) => correction.id),
    );
    let done = 0;

    /** Asks the reflector one question under its grammar, and parses the answer. */
    const ask = async <T>(
      prompt: ChatPrompt,
      gbnf: string,
      parse: (text: string) => ParsedModelJson<T>,
    ): Promise<Asked<T>> => {
      const asked = await model.complete(prompt, {
        grammar: { gbnf },
        maxTokens: options.maxTokens ?? 1_024,
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
    };

    /** Remembers a decline, so this model under this prompt is not asked again. */
    const remember = async (
      correction: Correction,
      declined: ReflectStep,
      outcome: DeclineOnRecord['outcome'],
    ): Promise<string | undefined> => {
      const by = model.distilledBy ?? 'unknown';
      const prompt = promptIdentity[declined];
      const written = await options.home.learning.reflections.append([
        {
          v: 1,
          reflection_id: `declined-${hashed(`${correction.id}\u0000${declined}\u0000${by}\u0000${prompt}`)}`,
          session_id: correction.sessionId,
          at: now(),
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
    };

    /**
     * One correction, asked: a follow-up is judged first (a judgment that quotes the owner is
     * recorded with its turn, and the lesson is asked in the same pass), then the lesson.
     * `undefined` when the pass stopped.
     */
    const reflectOn = async (
      correction: Correction,
      first: ReflectStep,
      example: PlanningExample | undefined,
    ): Promise<
      Omit<ReflectedCorrection, 'id' | 'kind' | 'sessionId' | 'at' | 'cite'> | undefined
    > => {
      let judged: { judged: 'now' } | Record<string, never> = {};
      if (first === 'judge') {
        const verdict = await ask(
          judgmentPrompt(correction),
          judgmentGrammar(),
          parseJudgmentReply,
        );
        if (verdict.state === 'stopped') {
          stopped = verdict.stop;
          return undefined;
        }
        if (verdict.state === 'failed') return { outcome: 'failed', reason: verdict.reason };
        if (!verdict.value.correction) {
          const kept = await remember(correction, 'judge', 'not_a_correction');
          return { outcome: 'not_a_correction', ...(kept === undefined ? {} : { reason: kept }) };
        }
        if (!isGrounded(verdict.value.quote, correction.words)) {
          const kept = await remember(correction, 'judge', 'not_grounded');
          return {
            outcome: 'not_grounded',
            reason: `the judgment's quote is not in the owner's words${kept === undefined ? '' : `; ${kept}`}`,
          };
        }
        const message = correction.message;
        if (message === undefined) return { outcome: 'failed', reason: 'no message to cite' };
        const written = await options.home.learning.reflections.append([
          {
            v: 1,
            reflection_id: `judgment-${hashed(correction.id)}`,
            session_id: correction.sessionId,
            at: now(),
            clean: true,
            correction_turn: message.turn,
            judgment: {
              correction_id: correction.id,
              message_id: message.id,
              quote: verdict.value.quote,
              judged_by: model.distilledBy ?? 'unknown',
              prompt: promptIdentity.judge,
            },
          },
        ]);
        if (written._tag === 'Left') return { outcome: 'failed', reason: written.left.message };
        judgmentsWritten += 1;
        judged = { judged: 'now' };
      }
      const reply = await ask(lessonPrompt(correction, example), lessonGrammar(), parseLessonReply);
      if (reply.state === 'stopped') {
        stopped = reply.stop;
        // A judgment written before the stop stands; its lesson is asked next pass.
        return first === 'judge'
          ? { outcome: 'failed', reason: reply.stop.message, ...judged }
          : undefined;
      }
      if (reply.state === 'failed') return { outcome: 'failed', reason: reply.reason, ...judged };
      if (reply.value.skip) {
        const kept = await remember(correction, 'lesson', 'nothing_to_learn');
        return {
          outcome: 'nothing_to_learn',
          ...(kept === undefined ? {} : { reason: kept }),
          ...judged,
        };
      }
      if (!isGrounded(reply.value.quote, correction.words)) {
        const kept = await remember(correction, 'lesson', 'not_grounded');
        return {
          outcome: 'not_grounded',
          reason: `the lesson's quote is not in the owner's words${kept === undefined ? '' : `; ${kept}`}`,
          ...judged,
        };
      }
      const id = lessonId(correction.id);
      const written = await options.home.learning.reflections.append([
        {
          v: 1,
          reflection_id: id,
          session_id: correction.sessionId,
          at: now(),
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
            reflected_by: model.distilledBy ?? 'unknown',
            prompt: promptIdentity.lesson,
          },
        },
      ]);
      if (written._tag === 'Left') {
        return { outcome: 'failed', reason: written.left.message, ...judged };
      }
      return { outcome: 'written', lessonId: id, lesson: reply.value.lesson, ...judged };
    };

    for (const correction of materials.corrections) {
      const judgedBefore = materials.judged.has(correction.id);
      const base = {
        id: correction.id,
        kind: correction.kind,
        sessionId: correction.sessionId,
        at: correction.at,
        cite: correction.cite,
        ...(judgedBefore ? { judged: 'on_record' as const } : {}),
      };
      if (materials.reflected.has(correction.id)) {
        results.push({ ...base, outcome: 'on_record', lessonId: lessonId(correction.id) });
        continue;
      }
      if (!correction.clean) {
        results.push({ ...base, outcome: 'not_clean' });
        continue;
      }
      if (correction.words.trim() === '') {
        results.push({ ...base, outcome: 'no_words' });
        continue;
      }
      const first = step(correction);
      const standing = standingDecline(declinesOf(correction), first, asker);
      if (standing !== undefined) {
        results.push({ ...base, outcome: 'declined', declined: standing });
        continue;
      }
      if (!chosen.has(correction.id) || stopped !== undefined) continue;
      const example = contrastEvidence
        ? contrastFor(materials.examples, correction.situation)
        : undefined;
      const contrast = contrastEvidence ? { contrast: contrastOf(example) } : {};
      if (dryRun) {
        const outcome = first === 'judge' ? 'would_judge' : 'would_reflect';
        results.push({ ...base, outcome, ...contrast });
        continue;
      }
      const result = await reflectOn(correction, first, example);
      done += 1;
      options.onProgress?.(done, chosen.size);
      if (result !== undefined) results.push({ ...base, ...result, ...contrast });
    }
  } finally {
    await model.dispose();
  }
  const counts = Object.fromEntries(outcomes.map((outcome) => [outcome, 0])) as Record<
    CorrectionOutcome,
    number
  >;
  for (const result of results) counts[result.outcome] += 1;
  return {
    state: 'ran',
    report: {
      dryRun,
      contrastEvidence,
      corrections: results,
      counts,
      unread: materials.unread,
      modelCalls: model.calls,
      judgmentsWritten,
      ...(stopped === undefined ? {} : { stopped }),
    },
  };
}
