import type { Replayer, ReplayPolicy, ReplayPrompt } from '../ports/replayer.js';
import { comparisonVerdict, validateArm } from '../rules/compare-arms.js';
import { type DecidedMoment, decidedMoments } from '../rules/decided-moments.js';
import { replayStart } from '../rules/probe-points.js';
import type { ComparisonArm, ComparisonRecord } from '../schemas/comparisons.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { TranscriptEvent } from '../schemas/transcript.js';

/** The policies `sessions compare` knows: each names the system prompt its arm runs under. */
export const comparePolicies: Readonly<Record<ReplayPrompt, ReplayPolicy>> = {
  covering: { name: 'covering', prompt: 'covering' },
  first: { name: 'first', prompt: 'first' },
  none: { name: 'none', prompt: 'none' },
};

/** Options of {@link compareMoment}. */
export interface CompareOptions {
  /** The moment to replay, as {@link DecidedMoment.id} names it; the newest when absent. */
  readonly at?: string;
  /** At least two policies. */
  readonly policies: readonly ReplayPolicy[];
  readonly workspace: string;
  readonly now: Date;
  /** The id the record is minted with. */
  readonly comparisonId: string;
  /** A 12-hex digest of a system prompt (the caller's hash; the core reads no crypto). */
  readonly digest: (text: string) => string;
  readonly signal?: AbortSignal;
  /** The comparisons already on record: a decided one of the same moment is not replayed. */
  readonly existing?: readonly ComparisonRecord[];
}

/** What comparing found: the record to keep, or why there is nothing to compare. */
export type CompareOutcome =
  | {
      readonly state: 'compared';
      readonly record: ComparisonRecord;
      readonly moment: DecidedMoment;
    }
  | {
      readonly state: 'already';
      readonly record: ComparisonRecord;
      readonly moment: DecidedMoment;
    }
  | { readonly state: 'no_moment'; readonly moments: readonly string[] };

/**
 * Replays one decided moment of a session under each policy, from the recorded prefix before
 * the act the owner decided on, and checks each arm with the validator that fits the moment.
 * A moment no structural check can pose is recorded `unposed` and nothing is driven. Returns
 * the comparison record; writing it is the caller's.
 */
export async function compareMoment(
  sessionId: string,
  events: readonly TranscriptEvent[],
  outbox: readonly OutboxRecord[],
  replayer: Replayer,
  options: CompareOptions,
): Promise<CompareOutcome> {
  const moments = decidedMoments(sessionId, events, outbox);
  const moment =
    options.at === undefined
      ? moments[moments.length - 1]
      : moments.find((candidate) => candidate.id === options.at);
  if (moment === undefined) {
    return { state: 'no_moment', moments: moments.map((candidate) => candidate.id) };
  }
  const base = {
    v: 1 as const,
    comparison_id: options.comparisonId,
    at: options.now.toISOString(),
    session_id: sessionId,
    moment: moment.moment,
    point: moment.point,
  };
  const policies = options.policies.map((policy) => policy.name);
  const decided = (options.existing ?? []).find(
    (record) =>
      (record.verdict === 'separated' || record.verdict === 'tied') &&
      sameComparison(record, { ...base, policies }),
  );
  if (decided !== undefined) return { state: 'already', moment, record: decided };
  if (moment.refused === undefined) {
    return { state: 'compared', moment, record: { ...base, verdict: 'unposed' } };
  }
  const arms: ComparisonArm[] = [];
  let model: string | undefined;
  for (const policy of options.policies) {
    const start = replayStart(events, moment, policy.prompt);
    let arm: Awaited<ReturnType<Replayer['replay']>>;
    try {
      arm = await replayer.replay({
        sessionId,
        runId: moment.runId,
        turn: moment.turn,
        kind: moment.kind,
        purpose: 'compare',
        policy,
        prefix: start.prefix,
        ...(start.systemPrompt === undefined ? {} : { systemPrompt: start.systemPrompt }),
        workspace: options.workspace,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    } catch (error) {
      arm = { state: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
    model ??= arm.model;
    arms.push({
      policy: policy.name,
      prompt: policy.prompt,
      ...(start.systemPrompt === undefined
        ? {}
        : { prompt_digest: options.digest(start.systemPrompt) }),
      result: validateArm(moment.refused, arm),
    });
  }
  const verdict = comparisonVerdict(arms.map((arm) => arm.result));
  return {
    state: 'compared',
    moment,
    record: {
      ...base,
      ...(model === undefined ? {} : { model }),
      verdict,
      ...(verdict === 'inconclusive' ? {} : { decided_by: 'validator' as const }),
      validator: moment.validator,
      arms,
    },
  };
}

function pointKey(point: ComparisonRecord['point']): string {
  return JSON.stringify([point?.turn ?? null, point?.call ?? null, point?.draft_id ?? null]);
}

/**
 * Whether two comparisons are of the same moment under the same policies: `sessions compare`
 * records a decided comparison once, so a second run finds the first instead of replaying.
 */
export function sameComparison(
  a: ComparisonRecord,
  b: Pick<ComparisonRecord, 'session_id' | 'moment' | 'point'> & {
    readonly policies: readonly string[];
  },
): boolean {
  const policies = (a.arms ?? []).map((arm) => arm.policy).sort();
  return (
    a.session_id === b.session_id &&
    a.moment === b.moment &&
    pointKey(a.point) === pointKey(b.point) &&
    JSON.stringify(policies) === JSON.stringify([...b.policies].sort())
  );
}
