import type { GoalRef } from '../../schemas/goal-error.js';
import type { SourceRead } from '../../schemas/source-read.js';
import type { TranscriptEvent } from '../../schemas/transcript.js';
import type { Success, SuccessCite, SuccessKind } from './success.js';

/** Why a success lends no planning example. */
export type LendsNoneReason =
  | 'not_standing'
  | 'not_toward_a_goal'
  | 'read_third_party'
  | 'taint_unknown'
  | 'situation_unrecorded'
  | 'no_tool_calls';

/** A planning example: the order of tools a successful session called, names only. */
export interface PlanningExample {
  readonly cite: SuccessCite;
  readonly kind: SuccessKind;
  readonly session_id: string;
  readonly at: string;
  readonly goal: GoalRef;
  /** Every workspace and surface its runs recorded; a later run must match them all. */
  readonly situations: readonly { readonly workspace: string; readonly surface: string }[];
  /** Every tool its runs had or called; a later run must have each of them. */
  readonly tools: readonly string[];
  /** The call trace, such as `fs_read → shell ×2 → fs_write`: a trace, not a plan. */
  readonly trace: string;
}

const arrow = ' \u2192 ';

/** Writes a call trace with repeats folded: `fs_read → shell ×2 → fs_write`. */
export function formatCallTrace(tools: readonly string[]): string {
  const steps: { tool: string; count: number }[] = [];
  for (const tool of tools) {
    const last = steps[steps.length - 1];
    if (last?.tool === tool) last.count += 1;
    else steps.push({ tool, count: 1 });
  }
  return steps
    .map((step) => (step.count === 1 ? step.tool : `${step.tool} \u00d7${step.count}`))
    .join(arrow);
}

/**
 * The planning example one standing success toward a goal lends, read from its session's
 * transcript, or why it lends none.
 */
export function lendExample(
  success: Success,
  sessionId: string,
  goal: GoalRef,
  transcript: SourceRead<TranscriptEvent>,
): PlanningExample | LendsNoneReason {
  if (transcript.state !== 'read') return 'taint_unknown';
  const calls: string[] = [];
  const tools = new Set<string>();
  const situations = new Map<string, { workspace: string; surface: string }>();
  let unrecorded = false;
  let unknownTaint = false;
  for (const event of transcript.records) {
    if (event.type === 'run_start') {
      if (event.workspace === undefined) unrecorded = true;
      else {
        situations.set(`${event.workspace}\u0000${event.surface}`, {
          workspace: event.workspace,
          surface: event.surface,
        });
      }
      for (const tool of event.tools ?? []) tools.add(tool);
    } else if (event.type === 'message' || event.type === 'tool_result') {
      if (
        event.taint === 'third_party' ||
        (event.type === 'message' && event.role === 'third_party')
      ) {
        return 'read_third_party';
      }
      if (event.taint === 'unknown') unknownTaint = true;
    } else if (event.type === 'tool_call') {
      calls.push(event.tool);
      tools.add(event.tool);
    }
  }
  if (unknownTaint) return 'taint_unknown';
  if (unrecorded || situations.size === 0) return 'situation_unrecorded';
  if (calls.length === 0) return 'no_tool_calls';
  return {
    cite: success.cite,
    kind: success.kind,
    session_id: sessionId,
    at: success.at,
    goal,
    situations: [...situations.values()],
    tools: [...tools].sort(),
    trace: formatCallTrace(calls),
  };
}

/** The run a planning example would be served to: where it runs, toward what, with what. */
export interface PlanningSituation {
  readonly workspace: string;
  readonly surface: string;
  readonly goal: GoalRef;
  readonly tools: readonly string[];
  /** When the run began; only successes before it are lent. */
  readonly startedAt: string;
}

function sameGoal(a: GoalRef, b: GoalRef): boolean {
  return a.kind === b.kind && a.id === b.id;
}

/**
 * The examples a later run in the same situation may be shown, newest first: the same
 * workspace and surface as every run of the success, the same goal, every tool it had, and a
 * success from before the run began.
 */
export function examplesFor(
  examples: readonly PlanningExample[],
  situation: PlanningSituation,
): PlanningExample[] {
  const has = new Set(situation.tools);
  const begun = Date.parse(situation.startedAt);
  return examples
    .filter(
      (example) =>
        Date.parse(example.at) < begun &&
        sameGoal(example.goal, situation.goal) &&
        example.situations.every(
          (where) => where.workspace === situation.workspace && where.surface === situation.surface,
        ) &&
        example.tools.every((tool) => has.has(tool)),
    )
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

const verifyingActs = {
  draft: 'sent unchanged',
  closure: 'closed as done',
  workflow: 'workflow closed',
  question: 'question answered',
} as const;

/**
 * The owner's act that verified an example, in fixed words (`closure c-1 closed as done`): all a
 * reader is told of why it counts as a success.
 */
export function verifiedByText(example: Pick<PlanningExample, 'cite'>): string {
  return `${example.cite.kind} ${example.cite.id} ${verifyingActs[example.cite.kind]}`;
}

/**
 * What an owner's correction is about, as far as its records name it: the session it was made in,
 * and the workspace, surface and goal when they are known, and the tools it concerned.
 */
export interface CorrectionSituation {
  readonly sessionId: string;
  readonly workspace?: string;
  readonly surface?: string;
  readonly goal?: GoalRef;
  readonly tools: readonly string[];
}

/**
 * The one verified success a correction may be shown beside (contrast evidence), or `undefined`:
 * the newest example from another session whose every run was in the correction's workspace and
 * surface and whose goal is the correction's, wherever the correction names them, and which had
 * every tool the correction was about. Examples are clean by construction (`lendExample` lends
 * none from a session that read third-party content or whose taint is unknown). Ties on time go
 * to the smaller session id, then cite id, so the choice does not depend on input order.
 */
export function contrastFor(
  examples: readonly PlanningExample[],
  correction: CorrectionSituation,
): PlanningExample | undefined {
  let best: PlanningExample | undefined;
  for (const example of examples) {
    if (example.session_id === correction.sessionId) continue;
    if (correction.goal !== undefined && !sameGoal(example.goal, correction.goal)) continue;
    const where = example.situations.every(
      (situation) =>
        (correction.workspace === undefined || situation.workspace === correction.workspace) &&
        (correction.surface === undefined || situation.surface === correction.surface),
    );
    if (!where) continue;
    if (!correction.tools.every((tool) => example.tools.includes(tool))) continue;
    if (best === undefined || newer(example, best)) best = example;
  }
  return best;
}

function newer(a: PlanningExample, b: PlanningExample): boolean {
  const at = Date.parse(a.at) - Date.parse(b.at);
  if (at !== 0) return at > 0;
  if (a.session_id !== b.session_id) return a.session_id < b.session_id;
  return a.cite.id < b.cite.id;
}
