import { actOnBelief, replacementDraft } from './apply-corrections.js';
import { closeFact, findFact, isDenied, recordDenial } from './fact-rows.js';
import type { GraphBackend } from './graph-database.js';
import { GraphInputError } from './graph-input-error.js';
import { parseInput } from './parse-input.js';
import {
  type DecideInput,
  decideSchema,
  type ResolveCorrectionInput,
  resolveCorrectionSchema,
} from './schemas.js';

/** What a review decision did. */
export interface DecisionResult {
  readonly fact_id: number;
  readonly status: 'accepted' | 'rejected';
  /** A rejection records a denial, so the candidate is never proposed again. */
  readonly denial_recorded: boolean;
}

/**
 * A person's decision on one staged fact: accept makes it a current belief; reject closes it in
 * time and records a denial. Person-only: the server registers it for the owner role alone.
 */
export async function decideReview(
  backend: GraphBackend,
  input: DecideInput,
): Promise<DecisionResult> {
  const parsed = parseInput(decideSchema, input, 'kg_review_decide request');
  return backend.write(async (graph) => {
    const now = graph.now();
    const fact = await findFact(graph, parsed.fact_id);
    if (fact === undefined) {
      throw new GraphInputError(`no fact with id ${parsed.fact_id}: take ids from kg_review_list`);
    }
    if (fact.status !== 'staged') {
      throw new GraphInputError(
        `fact ${fact.id} is ${fact.status}, and only staged facts are decided: to close an accepted belief use kg_correct`,
      );
    }
    if (parsed.decision === 'accept') {
      if (await isDenied(graph, { ...fact, key: fact.fact_key })) {
        throw new GraphInputError(
          `fact ${fact.id} matches a recorded denial and cannot be accepted: reject it instead`,
        );
      }
      await graph.run(
        `UPDATE facts SET status = 'accepted', decided_at = ? WHERE id = ?`,
        now,
        fact.id,
      );
      return { fact_id: fact.id, status: 'accepted', denial_recorded: false };
    }
    await closeFact(graph, fact.id, 'rejected', 'rejected in review', now, now);
    await graph.run('UPDATE facts SET decided_at = ? WHERE id = ?', now, fact.id);
    await recordDenial(graph, fact, 'review', null, now);
    return { fact_id: fact.id, status: 'rejected', denial_recorded: true };
  });
}

/** What resolving a correction from the review queue did. */
export interface ResolutionResult {
  readonly correction_id: number;
  readonly status: 'applied' | 'denied' | 'dismissed';
  readonly wrong_fact_id: number | null;
  readonly replacement_fact_id: number | null;
  readonly replacement_blocked: boolean;
  readonly sources_marked_down: readonly string[];
}

type RightSpec = string | { subject: string; predicate: string; object: string };

/**
 * A person's answer to a correction that matched no single belief: name the belief it meant
 * (it is then acted on like any correction) or leave fact_id out to dismiss it.
 */
export async function resolveCorrection(
  backend: GraphBackend,
  input: ResolveCorrectionInput,
): Promise<ResolutionResult> {
  const parsed = parseInput(resolveCorrectionSchema, input, 'kg_correction_resolve request');
  return backend.write(async (graph) => {
    const now = graph.now();
    const correction = await graph.get<{
      id: number;
      status: string;
      right_spec: string | null;
      about: string | null;
      occurred_at: string | null;
    }>(
      'SELECT id, status, right_spec, about, occurred_at FROM corrections WHERE id = ?',
      parsed.correction_id,
    );
    if (correction === undefined || correction.status !== 'review') {
      throw new GraphInputError(
        `correction ${parsed.correction_id} is not waiting for review: take ids from kg_review_list with queue "corrections"`,
      );
    }
    if (parsed.fact_id === undefined) {
      await graph.run(
        `UPDATE corrections SET status = 'dismissed', resolved_at = ? WHERE id = ?`,
        now,
        correction.id,
      );
      return {
        correction_id: correction.id,
        status: 'dismissed',
        wrong_fact_id: null,
        replacement_fact_id: null,
        replacement_blocked: false,
        sources_marked_down: [],
      };
    }
    const fact = await findFact(graph, parsed.fact_id);
    if (fact === undefined || (fact.status !== 'staged' && fact.status !== 'accepted')) {
      throw new GraphInputError(
        `fact ${parsed.fact_id} is not a current belief: pick a staged or accepted fact from kg_search`,
      );
    }
    const right =
      correction.right_spec === null ? null : (JSON.parse(correction.right_spec) as RightSpec);
    const replacement =
      right === null ? null : (replacementDraft(right, fact, correction.about) ?? null);
    if (right !== null && (replacement === null || replacement.key === fact.fact_key)) {
      throw new GraphInputError(
        `the correction's replacement is fact ${fact.id} itself: pick the belief it corrects, or dismiss it`,
      );
    }
    const status = right === null ? 'denied' : 'applied';
    await graph.run(
      'UPDATE corrections SET status = ?, resolved_at = ? WHERE id = ?',
      status,
      now,
      correction.id,
    );
    const acted = await actOnBelief(
      graph,
      correction.id,
      fact,
      replacement,
      correction.occurred_at ?? now,
      now,
    );
    return { correction_id: correction.id, status, wrong_fact_id: fact.id, ...acted };
  });
}
