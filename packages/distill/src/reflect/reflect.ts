import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  contrastFor,
  type PlanningExample,
  successes,
  verifiedByText,
} from '@mecha/appraisal-core';
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
import {
  type Correction,
  type CorrectionKind,
  ownerCorrections,
  type SessionFacts,
  sessionFacts,
} from './corrections.js';
import { isGrounded, lessonGrammar, lessonPrompt, parseLessonReply } from './lesson-prompt.js';

/** What became of one correction in a pass. */
export type CorrectionOutcome =
  /** A dry run: it would be reflected on. */
  | 'would_reflect'
  /** A lesson was written to `learning/reflections.jsonl`. */
  | 'written'
  /** The model's quote is not in the owner's words: nothing written. */
  | 'not_grounded'
  /** The model found nothing to learn in the owner's words: nothing written. */
  | 'nothing_to_learn'
  /** A session it comes from read third-party content, or could not be read whole. */
  | 'not_clean'
  /** The owner said nothing with it (a steer with no message after it). */
  | 'no_words'
  /** A lesson from it is on record already. */
  | 'on_record'
  /** The model call failed, or its answer did not parse. */
  | 'failed';

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
  'written',
  'not_grounded',
  'nothing_to_learn',
  'not_clean',
  'no_words',
  'on_record',
  'failed',
];

/** A lesson's id, from its correction's: the same correction always names the same lesson. */
export function lessonId(correctionId: string): string {
  return `lesson-${createHash('sha256').update(correctionId).digest('hex').slice(0, 20)}`;
}

interface Materials {
  readonly corrections: readonly Correction[];
  readonly examples: readonly PlanningExample[];
  readonly reflected: ReadonlySet<string>;
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
  for (const record of reflections.records) {
    if (record.lesson !== undefined) reflected.add(record.lesson.correction_id);
  }
  return {
    corrections: ownerCorrections({
      sessions,
      outbox: outbox.state === 'unreadable' ? [] : outbox.records,
      closures: closures.state === 'unreadable' ? [] : closures.records,
    }),
    examples: readout?.examples ?? [],
    reflected,
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
  const results: ReflectedCorrection[] = [];
  let stopped: DistillStop | undefined;
  const todo = materials.corrections.filter(
    (correction) =>
      !materials.reflected.has(correction.id) && correction.clean && correction.words.trim() !== '',
  );
  const chosen = new Set(
    todo.slice(0, options.limit ?? todo.length).map((correction) => correction.id),
  );
  let done = 0;
  try {
    for (const correction of materials.corrections) {
      const base = {
        id: correction.id,
        kind: correction.kind,
        sessionId: correction.sessionId,
        at: correction.at,
        cite: correction.cite,
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
      if (!chosen.has(correction.id) || stopped !== undefined) continue;
      const example = contrastEvidence
        ? contrastFor(materials.examples, correction.situation)
        : undefined;
      const contrast = contrastEvidence ? { contrast: contrastOf(example) } : {};
      if (dryRun) {
        results.push({ ...base, outcome: 'would_reflect', ...contrast });
        continue;
      }
      const asked = await model.complete(lessonPrompt(correction, example), {
        grammar: { gbnf: lessonGrammar() },
        maxTokens: options.maxTokens ?? 1_024,
      });
      done += 1;
      options.onProgress?.(done, chosen.size);
      if (asked._tag === 'Left') {
        if (asked.left.stop !== undefined) {
          stopped = asked.left.stop;
          continue;
        }
        results.push({ ...base, outcome: 'failed', reason: asked.left.message, ...contrast });
        continue;
      }
      const reply = parseLessonReply(asked.right.text);
      if (reply.state !== 'read') {
        results.push({ ...base, outcome: 'failed', reason: reply.reason, ...contrast });
        continue;
      }
      if (reply.value.skip) {
        results.push({ ...base, outcome: 'nothing_to_learn', ...contrast });
        continue;
      }
      if (!isGrounded(reply.value.quote, correction.words)) {
        results.push({
          ...base,
          outcome: 'not_grounded',
          reason: "the lesson's quote is not in the owner's words",
          ...contrast,
        });
        continue;
      }
      const id = lessonId(correction.id);
      const written = await options.home.learning.reflections.append([
        {
          v: 1,
          reflection_id: id,
          session_id: correction.sessionId,
          at: (options.clock?.() ?? new Date()).toISOString(),
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
          },
        },
      ]);
      if (written._tag === 'Left') {
        results.push({ ...base, outcome: 'failed', reason: written.left.message, ...contrast });
        continue;
      }
      results.push({
        ...base,
        outcome: 'written',
        lessonId: id,
        lesson: reply.value.lesson,
        ...contrast,
      });
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
      ...(stopped === undefined ? {} : { stopped }),
    },
  };
}
