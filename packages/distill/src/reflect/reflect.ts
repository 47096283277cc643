import { join } from 'node:path';
import { contrastFor, type PlanningExample, verifiedByText } from '@mecha/appraisal-core';
import { configIssueText, type MechaHome, refuseMissingHome, withLock } from '@mecha/stores';
import type { ModelSource } from '../distill/distill-options.js';
import type { DistillStop } from '../distill/distill-report.js';
import { ModelAccess } from '../distill/model-access.js';
import type { Correction, CorrectionKind } from './corrections.js';
import { promptIdentity } from './lesson-prompt.js';
import { readMaterials } from './reflect-materials.js';
import { askerOf, lessonId, Reflector } from './reflector.js';

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
  const reflector = new Reflector(options, model, () =>
    (options.clock?.() ?? new Date()).toISOString(),
  );
  const results: ReflectedCorrection[] = [];
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
      if (typeof named === 'object') reflector.stopped = named;
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
      if (!chosen.has(correction.id) || reflector.stopped !== undefined) continue;
      const example = contrastEvidence
        ? contrastFor(materials.examples, correction.situation)
        : undefined;
      const contrast = contrastEvidence ? { contrast: contrastOf(example) } : {};
      if (dryRun) {
        const outcome = first === 'judge' ? 'would_judge' : 'would_reflect';
        results.push({ ...base, outcome, ...contrast });
        continue;
      }
      const result = await reflector.reflectOn(correction, first, example);
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
      judgmentsWritten: reflector.judgmentsWritten,
      ...(reflector.stopped === undefined ? {} : { stopped: reflector.stopped }),
    },
  };
}
