import type { Agency, Channel, Cite, GoalError, GoalRef, Label } from '@mecha/appraisal-core';
import type { ReportedSurprise } from './distill-reply.js';
import type { EpisodeEntity, EpisodeRelation, GroundedFacts } from './extract-facts.js';
import type { SentCorrection } from './ground-corrections.js';
import { type GoalDirectory, goalPointer, resolveGoal } from './resolve-goal.js';
import { type EpisodeTaint, isKnownClean } from './session-taint.js';

/** The source every episode mecha writes carries: provenance is the undo story. */
export const episodeSource = 'agent:mecha';

/** One signed goal error as it rides on episode metadata: structured facts, no prose. */
export interface EpisodeGoalError {
  readonly channel: Channel;
  readonly sign: number;
  readonly agency: Agency;
  readonly visible: boolean;
  readonly cite: Cite;
  /** `kind:id` when the goal resolves, else the kind word. */
  readonly goal?: string;
}

/** What `meta` holds. Corrections and surprises are present only from a known-clean session. */
export interface EpisodeMeta {
  readonly taint: EpisodeTaint;
  readonly distilled_by: string;
  readonly affect?: Label;
  readonly goal_errors?: readonly EpisodeGoalError[];
  readonly goal?: string;
  readonly serves_charter?: readonly string[];
  readonly corrections?: readonly SentCorrection[];
  readonly surprises?: readonly ReportedSurprise[];
  /** Named entities the local model extracted, each written in the episode (candidates only). */
  readonly entities?: readonly EpisodeEntity[];
  /** Relations the local model extracted, each with the episode's words that state it (candidates only). */
  readonly relations?: readonly EpisodeRelation[];
  /**
   * Who extracted the episode's facts, when the local model did (even when it found none): the
   * graph then reads `entities`/`relations` as the episode's whole extraction and leaves the
   * prose alone. Absent when no extraction was asked for or it failed.
   */
  readonly facts_by?: string;
}

/** The episode as pushed through `kg_upsert`. */
export interface Episode {
  readonly kind: 'episode';
  readonly source: typeof episodeSource;
  readonly source_id: string;
  readonly source_ref: string;
  readonly occurred_at: string;
  readonly body: string;
  readonly meta: EpisodeMeta;
}

/** The session's own appraisal, when it has an outcome to appraise. */
export interface EpisodeAppraisal {
  readonly label: Label;
  readonly errors: readonly GoalError[];
}

/** Everything an episode is assembled from. */
export interface EpisodeParts {
  readonly sessionId: string;
  readonly sourceRef: string;
  readonly occurredAt: string;
  readonly body: string;
  readonly taint: EpisodeTaint;
  readonly distilledBy: string;
  /** Omitted when the session has no outcome to appraise (no run ever ended). */
  readonly appraisal?: EpisodeAppraisal;
  /** The goal the session's first run named, if any. */
  readonly goal?: GoalRef;
  readonly directory: GoalDirectory;
  /** Already checked against the owner's words: an ungrounded one is marked for review. */
  readonly corrections: readonly SentCorrection[];
  readonly surprises: readonly ReportedSurprise[];
  /** Candidate facts the model extracted and the episode's words carry; absent when none were asked for or the call failed. */
  readonly facts?: GroundedFacts;
}

/**
 * Assembles the episode with exactly the fields distillation pushes. Affect and goal errors ride
 * on `meta` whatever the taint, because the harness computed them; goal pointers cross only when
 * they resolve; corrections and surprises are left out unless the whole timeline is known clean.
 */
export function buildEpisode(parts: EpisodeParts): Episode {
  const servesCharter = new Set<string>();
  const pointer = (goal: GoalRef): string => {
    const resolved = resolveGoal(goal, parts.directory);
    if (resolved?.kind === 'charter' && resolved.id !== undefined) servesCharter.add(resolved.id);
    return goalPointer(goal, parts.directory);
  };
  const goal = parts.goal === undefined ? undefined : pointer(parts.goal);
  const goalErrors = parts.appraisal?.errors.map((error): EpisodeGoalError => {
    const base = {
      channel: error.channel,
      sign: error.sign,
      agency: error.agency,
      visible: error.visible,
      cite: error.cite,
    };
    return error.goal === undefined ? base : { ...base, goal: pointer(error.goal) };
  });
  const clean = isKnownClean(parts.taint);
  const meta: EpisodeMeta = {
    taint: parts.taint,
    distilled_by: parts.distilledBy,
    ...(parts.appraisal === undefined
      ? {}
      : { affect: parts.appraisal.label, goal_errors: goalErrors ?? [] }),
    ...(goal === undefined ? {} : { goal }),
    ...(servesCharter.size === 0 ? {} : { serves_charter: [...servesCharter].sort() }),
    ...(clean && parts.corrections.length > 0 ? { corrections: parts.corrections } : {}),
    ...(clean && parts.surprises.length > 0 ? { surprises: parts.surprises } : {}),
    ...(parts.facts === undefined || parts.facts.entities.length === 0
      ? {}
      : { entities: parts.facts.entities }),
    ...(parts.facts === undefined || parts.facts.relations.length === 0
      ? {}
      : { relations: parts.facts.relations }),
    ...(parts.facts === undefined ? {} : { facts_by: parts.distilledBy }),
  };
  return {
    kind: 'episode',
    source: episodeSource,
    source_id: parts.sessionId,
    source_ref: parts.sourceRef,
    occurred_at: parts.occurredAt,
    body: parts.body,
    meta,
  };
}
