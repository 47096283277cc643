import {
  type ClosureRecord,
  type CorrectionSituation,
  type GoalRef,
  type OutboxRecord,
  recordedActs,
  type SourceRead,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import { isKnownClean, sessionTaint } from '../session-taint.js';

/**
 * Which of the owner's acts a correction is. A `follow_up` is the owner's next message after a
 * run ended: a correction only once the reflector has judged it one.
 */
export type CorrectionKind = 'steer' | 'rejection' | 'reopen' | 'follow_up';

/**
 * One correction the owner made, as the records keep it: the act, the owner's own words for it
 * (what a lesson must quote), where it was made and what it concerned.
 */
export interface Correction {
  /**
   * Stable across runs: `steer:SESSION:RUN:TURN`, `rejection:DRAFT`, `reopen:CLOSURE`,
   * `follow_up:SESSION:MESSAGE`.
   */
  readonly id: string;
  readonly kind: CorrectionKind;
  readonly cite: { readonly kind: 'turn' | 'draft' | 'closure'; readonly id: string };
  readonly at: string;
  /** The session it was made in (for a reopen, the first session the closure named). */
  readonly sessionId: string;
  /** The owner's words it carries: the message after a steer, a rejection's or reopen's reason. */
  readonly words: string;
  /** Where it was made and the tools it was about: what contrast evidence must match. */
  readonly situation: CorrectionSituation;
  /** Whether every session it comes from is known clean (read whole, no third-party content). */
  readonly clean: boolean;
  /** For a follow-up: the owner's message (its id and its turn, the turn a judgment names). */
  readonly message?: { readonly id: string; readonly turn: number };
}

/** What one session's transcript tells the reflector, kept small so a pass holds no transcript. */
export interface SessionFacts {
  readonly sessionId: string;
  readonly clean: boolean;
  /** The workspace, surface and goal every run of the session shared, where they agree. */
  readonly workspace?: string;
  readonly surface?: string;
  readonly goal?: GoalRef;
  readonly steers: readonly Correction[];
  /** The owner's first message after each run that ended, not yet judged a correction or not. */
  readonly followUps: readonly Correction[];
}

/** The owner's next message after a run ended, as `followUps` finds it. */
export interface FollowUp {
  /** The run that ended before it. */
  readonly endedRunId: string;
  /** The run the message is in (ordinarily the next run of the session). */
  readonly runId: string;
  readonly messageId: string;
  readonly turn: number;
  readonly at: string;
  readonly text: string;
}

/**
 * The owner's follow-ups in a transcript, in file order: after each `run_end`, the first owner
 * message that carries text. A run that ends with no owner message before the next `run_end`
 * has none (the later end's follow-up answers that later run), and a message is the follow-up
 * of at most one run.
 */
export function followUps(events: readonly TranscriptEvent[]): FollowUp[] {
  const found: FollowUp[] = [];
  let ended: string | undefined;
  for (const event of events) {
    if (event.type === 'run_end') ended = event.run_id;
    else if (
      ended !== undefined &&
      event.type === 'message' &&
      event.role === 'owner' &&
      event.text !== undefined
    ) {
      found.push({
        endedRunId: ended,
        runId: event.run_id,
        messageId: event.message_id,
        turn: event.turn,
        at: event.at,
        text: event.text,
      });
      ended = undefined;
    }
  }
  return found;
}

interface RunFacts {
  workspace?: string;
  surface?: string;
  goal?: GoalRef;
  readonly calls: { turn: number; tool: string }[];
  readonly owner: { turn: number; text: string; id: string }[];
  readonly steers: { turn: number; at: string }[];
}

/** The one value every run agrees on, or undefined when they differ or none records it. */
function shared<T>(
  values: readonly (T | undefined)[],
  same: (a: T, b: T) => boolean,
): T | undefined {
  const first = values[0];
  if (first === undefined) return undefined;
  return values.every((value) => value !== undefined && same(value, first)) ? first : undefined;
}

const sameGoal = (a: GoalRef, b: GoalRef) => a.kind === b.kind && a.id === b.id;

/**
 * Reads a session's corrections and situation from its transcript. A steer's words are the
 * owner's first message at or after the steer's turn in the same run; a steer the owner said
 * nothing with carries no words (and can ground no lesson). The tools a steer is about are the
 * ones its run called up to the steer. A transcript that could not be read whole is not clean.
 */
export function sessionFacts(
  sessionId: string,
  transcript: SourceRead<TranscriptEvent>,
): SessionFacts {
  const clean = isKnownClean(sessionTaint(transcript));
  const runs = new Map<string, RunFacts>();
  const runOf = (runId: string): RunFacts => {
    let run = runs.get(runId);
    if (run === undefined) {
      run = { calls: [], owner: [], steers: [] };
      runs.set(runId, run);
    }
    return run;
  };
  const records = transcript.state === 'unreadable' ? [] : transcript.records;
  for (const event of records) {
    const run = runOf(event.run_id);
    if (event.type === 'run_start') {
      run.surface = event.surface;
      if (event.workspace !== undefined) run.workspace = event.workspace;
      if (event.goal !== undefined) run.goal = event.goal;
    } else if (event.type === 'tool_call') {
      run.calls.push({ turn: event.turn, tool: event.tool });
    } else if (event.type === 'message' && event.role === 'owner' && event.text !== undefined) {
      run.owner.push({ turn: event.turn, text: event.text, id: event.message_id });
    } else if (event.type === 'intervention' && event.kind === 'steer') {
      // Two steers on one turn are one act (one Esc, say): the first one's time stands.
      if (!run.steers.some((steer) => steer.turn === event.turn)) {
        run.steers.push({ turn: event.turn, at: event.at });
      }
    }
  }
  const all = [...runs.values()].filter((run) => run.surface !== undefined);
  const workspace = shared(
    all.map((run) => run.workspace),
    (a, b) => a === b,
  );
  const surface = shared(
    all.map((run) => run.surface),
    (a, b) => a === b,
  );
  const goal = shared(
    all.map((run) => run.goal),
    sameGoal,
  );
  const steers: Correction[] = [];
  // A message a steer takes its words from is that steer's correction, never a follow-up too.
  const steerWords = new Set<string>();
  for (const [runId, run] of runs) {
    for (const steer of run.steers) {
      const said = run.owner.find((message) => message.turn >= steer.turn);
      if (said !== undefined) steerWords.add(`${runId}\u0000${said.id}`);
      const tools = [
        ...new Set(run.calls.filter((call) => call.turn <= steer.turn).map((call) => call.tool)),
      ].sort();
      steers.push({
        id: `steer:${sessionId}:${runId}:${steer.turn}`,
        kind: 'steer',
        cite: { kind: 'turn', id: `${runId}:${steer.turn}` },
        at: steer.at,
        sessionId,
        words: said?.text ?? '',
        situation: {
          sessionId,
          ...(run.workspace === undefined ? {} : { workspace: run.workspace }),
          ...(run.surface === undefined ? {} : { surface: run.surface }),
          ...(run.goal === undefined ? {} : { goal: run.goal }),
          tools,
        },
        clean,
      });
    }
  }
  const follows: Correction[] = [];
  for (const follow of followUps(records)) {
    if (steerWords.has(`${follow.runId}\u0000${follow.messageId}`)) continue;
    // What the follow-up answers: the run that ended, where it was and the tools it called.
    const run = runOf(follow.endedRunId);
    follows.push({
      id: `follow_up:${sessionId}:${follow.messageId}`,
      kind: 'follow_up',
      cite: { kind: 'turn', id: `${follow.runId}:${follow.turn}` },
      at: follow.at,
      sessionId,
      words: follow.text,
      situation: {
        sessionId,
        ...(run.workspace === undefined ? {} : { workspace: run.workspace }),
        ...(run.surface === undefined ? {} : { surface: run.surface }),
        ...(run.goal === undefined ? {} : { goal: run.goal }),
        tools: [...new Set(run.calls.map((call) => call.tool))].sort(),
      },
      clean,
      message: { id: follow.messageId, turn: follow.turn },
    });
  }
  return {
    sessionId,
    clean,
    ...(workspace === undefined ? {} : { workspace }),
    ...(surface === undefined ? {} : { surface }),
    ...(goal === undefined ? {} : { goal }),
    steers,
    followUps: follows,
  };
}

/** Where a session was, for a correction made outside its transcript (a rejection, a reopen). */
function situationOf(
  facts: SessionFacts | undefined,
  sessionId: string,
  extra: { goal?: GoalRef; tools: readonly string[] },
): CorrectionSituation {
  const goal = extra.goal ?? facts?.goal;
  return {
    sessionId,
    ...(facts?.workspace === undefined ? {} : { workspace: facts.workspace }),
    ...(facts?.surface === undefined ? {} : { surface: facts.surface }),
    ...(goal === undefined ? {} : { goal }),
    tools: extra.tools,
  };
}

/**
 * Every correction the owner made, oldest first: each steer, each follow-up (for the reflector
 * to judge), each draft the owner rejected with a
 * reason (about the tool that would have sent it), each reopen by the owner with a reason (about
 * the task, on the sessions of the closure it undoes). Rejections and reopens are read from the
 * owner's acts as appraisal-core derives them (`recordedActs`), so a reopen here is the reopen
 * the contributions sign. A correction whose session is unknown to the store is not clean.
 */
export function ownerCorrections(materials: {
  readonly sessions: ReadonlyMap<string, SessionFacts>;
  readonly outbox: readonly OutboxRecord[];
  readonly closures: readonly ClosureRecord[];
}): Correction[] {
  const corrections: Correction[] = [];
  for (const facts of materials.sessions.values()) {
    corrections.push(...facts.steers, ...facts.followUps);
  }
  for (const act of recordedActs({ outbox: materials.outbox, closures: materials.closures })) {
    if (act.act === 'draft_rejected') {
      const draft = act.staged;
      const reason = act.record.reason?.trim() ?? '';
      // The draft's deciding verdict, given by the owner with a reason.
      if (draft === undefined || !act.deciding || act.record.sender !== 'owner' || reason === '') {
        continue;
      }
      const facts = materials.sessions.get(draft.session_id);
      corrections.push({
        id: `rejection:${act.id}`,
        kind: 'rejection',
        cite: { kind: 'draft', id: act.id },
        at: act.at,
        sessionId: draft.session_id,
        words: reason,
        situation: situationOf(facts, draft.session_id, {
          ...(draft.goal === undefined ? {} : { goal: draft.goal }),
          tools: [draft.tool],
        }),
        clean: facts?.clean === true && draft.taint === 'clean',
      });
    } else if (act.act === 'task_reopened') {
      const first = act.session_ids[0];
      const reason = act.record.reason?.trim() ?? '';
      if (act.record.who !== 'owner' || first === undefined || reason === '') continue;
      corrections.push({
        id: `reopen:${act.id}`,
        kind: 'reopen',
        cite: { kind: 'closure', id: act.id },
        at: act.at,
        sessionId: first,
        words: reason,
        situation: situationOf(materials.sessions.get(first), first, {
          goal: { kind: 'task', id: act.record.task_id },
          tools: [],
        }),
        clean: act.session_ids.every((id) => materials.sessions.get(id)?.clean === true),
      });
    }
  }
  return corrections.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.id < b.id ? -1 : 1));
}
