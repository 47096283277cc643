import {
  examplesFor,
  type GoalRef,
  successes,
  type TextAppraisalRecord,
  verifiedByText,
} from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { configIssueText } from '../config.js';
import { contextOf, type MechaHome } from '../home-context.js';
import { homePorts } from '../home-ports.js';

/** The most of each kind `goalContext` returns. */
export const goalContextLimit = 3;
/** The longest interpretation returned; a longer one is cut, and says so. */
const interpretationLimit = 2_000;

/** An earlier appraisal, shown as what it is: a model's interpretation, not a fact about this run. */
export interface PastAppraisal {
  readonly session_id: string;
  readonly at: string;
  readonly interpretation: string;
  readonly truncated: boolean;
  readonly note: string;
}

/** A planning example: the act that verified it, and the call trace (not a plan). */
export interface GoalExample {
  readonly session_id: string;
  readonly at: string;
  readonly verified_by: string;
  readonly trace: string;
  readonly note: string;
}

/** One part of the goal context: off by config, unreadable with the reason, or the items. */
export type GoalContextPart<T> =
  | { readonly state: 'off'; readonly key: string }
  | { readonly state: 'unreadable'; readonly reason: string }
  | { readonly state: 'read'; readonly items: readonly T[]; readonly partial: boolean };

/**
 * What `goal_context` returns for a run that asks for its goal's context. Calling it counts as
 * reading private data (`private: true`): record its result as the call's `tool_result`.
 */
export interface GoalContext {
  readonly private: true;
  readonly appraisals: GoalContextPart<PastAppraisal>;
  readonly examples: GoalContextPart<GoalExample>;
}

/** The run asking: its goal and situation (workspace, surface, the tools it has). */
export interface GoalContextRequest {
  readonly goal: GoalRef;
  readonly workspace: string;
  readonly surface: string;
  readonly tools: readonly string[];
  /** When the run began (ISO 8601); the home's clock now by default. Only earlier work is lent. */
  readonly startedAt?: string;
}

const sameGoal = (a: GoalRef | undefined, b: GoalRef) =>
  a !== undefined && a.kind === b.kind && a.id === b.id;

async function pastAppraisals(
  home: MechaHome,
  request: GoalContextRequest,
  startedAt: string,
): Promise<GoalContextPart<PastAppraisal>> {
  // Sessions in the same situation toward the same goal: a run with this goal, workspace and
  // surface, and no run of it elsewhere.
  const matching = new Set<string>();
  let unreadable = 0;
  const listing = await home.sessions.scan({
    population: 'every',
    events: ['run_start'],
    visit: (member, transcript) => {
      if (transcript.state === 'unreadable') {
        unreadable += 1;
        return;
      }
      const starts = transcript.records.flatMap((event) =>
        event.type === 'run_start' ? [event] : [],
      );
      const same =
        starts.length > 0 &&
        starts.some((start) => sameGoal(start.goal, request.goal)) &&
        starts.every(
          (start) => start.workspace === request.workspace && start.surface === request.surface,
        );
      if (same) matching.add(member.sessionId);
    },
  });
  if (listing.state === 'unreadable') return { state: 'unreadable', reason: listing.reason };
  const store = await home.appraisals.textAppraisals.read();
  if (store.state === 'unreadable') return { state: 'unreadable', reason: store.reason };
  const begun = Date.parse(startedAt);
  // Only appraisals of runs that read no third-party content; unknown taint is never clean.
  const chosen = store.records
    .filter(
      (record: TextAppraisalRecord) =>
        record.taint === 'clean' &&
        matching.has(record.session_id) &&
        Date.parse(record.at) < begun,
    )
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
    .slice(0, goalContextLimit);
  return {
    state: 'read',
    partial: listing.state === 'partial' || store.state === 'partial' || unreadable > 0,
    items: chosen.map((record) => {
      const chars = [...record.interpretation];
      const truncated = chars.length > interpretationLimit;
      return {
        session_id: record.session_id,
        at: record.at,
        interpretation: truncated
          ? `${chars.slice(0, interpretationLimit).join('')}…`
          : record.interpretation,
        truncated,
        note: 'An interpretation a model wrote after an earlier run toward this goal — not a fact about this run.',
      };
    }),
  };
}

async function examples(
  home: MechaHome,
  request: GoalContextRequest,
  startedAt: string,
): Promise<GoalContextPart<GoalExample>> {
  const readout = await successes(homePorts(home), { examples: true });
  if (readout.standing === null) {
    return { state: 'unreadable', reason: 'the session store could not be listed' };
  }
  const lent = examplesFor(readout.examples, {
    workspace: request.workspace,
    surface: request.surface,
    goal: request.goal,
    tools: request.tools,
    startedAt,
  }).slice(0, goalContextLimit);
  return {
    state: 'read',
    partial: readout.partial,
    items: lent.map((example) => ({
      session_id: example.session_id,
      at: example.at,
      verified_by: verifiedByText(example),
      trace: example.trace,
      note: `Verified by the owner's act (${verifiedByText(example)}). A call trace of what that session did, not a plan.`,
    })),
  };
}

/**
 * What the `goal_context` tool returns: with `[agent] past_appraisals` on, up to three earlier
 * clean text appraisals of runs in the same situation toward the same goal, newest first; with
 * `[agent] success_examples` on, up to three planning examples from verified successes in the
 * same situation. Either part is `off` when its switch is off (both ship off). Nothing is added
 * to any prompt; the call itself counts as reading private data.
 */
export async function goalContext(
  home: MechaHome,
  request: GoalContextRequest,
): Promise<GoalContext> {
  const config = home.readConfig();
  if (E.isLeft(config)) {
    const reason = `config.toml could not be used (${config.left.map(configIssueText).join('; ')})`;
    return {
      private: true,
      appraisals: { state: 'unreadable', reason },
      examples: { state: 'unreadable', reason },
    };
  }
  const agent = config.right.agent;
  const startedAt = request.startedAt ?? contextOf(home).clock().toISOString();
  return {
    private: true,
    appraisals: agent.past_appraisals
      ? await pastAppraisals(home, request, startedAt)
      : { state: 'off', key: 'agent.past_appraisals' },
    examples: agent.success_examples
      ? await examples(home, request, startedAt)
      : { state: 'off', key: 'agent.success_examples' },
  };
}
