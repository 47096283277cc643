import type { ConditionsSnapshot, SituationBriefRecord, StopCause } from '@mecha/appraisal-core';
import { commitmentsLine } from './commitments-line.js';
import type { OwnerTime } from './owner-time.js';
import type { Reading } from './reading.js';
import {
  budgetLine,
  runsLine,
  seatsLine,
  slotsLine,
  timeLine,
  voiceLine,
} from './resource-lines.js';
import type { BoardSummary } from './summarize-board.js';
import { attemptsLine, boardLine, goalLine } from './work-lines.js';

/** A charter line a goal serves, with its rank (1 is the top); the brief never prints the rank. */
export interface ServedLine {
  readonly id: string;
  readonly rank: number;
}

/** The project a task sits under, with how many tasks are open there (`complete: false`: at least). */
export interface GoalProject {
  readonly id: string;
  readonly openTasks: number;
  readonly complete: boolean;
}

/**
 * The chain above a run's goal: its task and project, or its trigger, request or charter line,
 * and the charter lines it serves. A run with no goal is `no_anchor`, not an empty chain.
 */
export type GoalInput =
  | { readonly anchor: 'no_anchor' }
  | {
      readonly anchor: 'task';
      readonly taskId: string;
      /** `none` when the task is under no project. */
      readonly project: Reading<GoalProject | 'none'>;
      readonly serves: Reading<readonly ServedLine[]>;
    }
  | {
      readonly anchor: 'project' | 'trigger' | 'request' | 'charter';
      readonly id: string;
      readonly serves: Reading<readonly ServedLine[]>;
    };

/**
 * Something the owner did with an earlier session's work, named by what it was done to. A
 * rejected draft carries no reason by construction: the brief does not quote one yet. A reopen's
 * reason is quoted only when the owner reopened the task themself.
 */
export type OwnerAct =
  | {
      readonly act:
        | 'draft_rejected'
        | 'draft_sent_unchanged'
        | 'draft_sent_edited'
        | 'draft_cancelled';
      readonly draftId: string;
    }
  | { readonly act: 'task_closed'; readonly closureId: string; readonly to: 'done' | 'dropped' }
  | {
      readonly act: 'task_reopened';
      readonly closureId: string;
      readonly by: 'owner' | 'agent_with_approval' | 'unknown';
      readonly reason?: string;
    }
  | { readonly act: 'question_answered' | 'question_let_go'; readonly questionId: string };

/** One earlier session on the same task: when it started, what the owner did, how it ended. */
export interface Attempt {
  readonly sessionId: string;
  /** Milliseconds between its start and now. */
  readonly startedAgo: Reading<number>;
  readonly ownerActs: Reading<readonly OwnerAct[]>;
  /** The stop cause the harness recorded, or `no_end_recorded`. */
  readonly ended: Reading<StopCause | 'no_end_recorded'>;
}

/**
 * Earlier sessions on the run's task, newest first (the brief shows three). `short` says why
 * the list may be incomplete — a session file that could not be read, older sessions not
 * searched — and makes the count "at least". A run not on a task is `not_a_task`.
 */
export type AttemptsInput =
  | { readonly kind: 'not_a_task' }
  | { readonly kind: 'task'; readonly sessions: readonly Attempt[]; readonly short?: string };

/** Background seats on the model: how many there are and what holds them. */
export interface SeatsInput {
  readonly total: number;
  readonly heldBy: readonly string[];
}

/** Other delegated tasks and trigger runs in flight, by id; interactive chats are not counted. */
export interface RunsInput {
  readonly delegatedTasks: readonly string[];
  readonly triggers: readonly string[];
}

/** The local model server's slots (`GET /slots`); `not_local` when the provider is not local. */
export type SlotsInput =
  | { readonly kind: 'not_local' }
  | { readonly kind: 'local'; readonly total: number; readonly busy: number };

/** Whether a voice call is in progress: see `voiceState`. */
export interface VoiceInput {
  readonly inCall: boolean;
}

/** The run's ceilings; `none` is a known absence of a ceiling, not an unknown one. */
export interface BudgetInput {
  readonly maxTurns: number | 'none';
  readonly outputTokenCeiling: number | 'none';
  readonly costCeilingUsd: number | 'none';
  readonly contextWindow: number | 'none';
  /** Prompt tokens at which the conversation is compacted. */
  readonly compactionThreshold: number | 'none';
}

/**
 * Everything a situation brief is rendered from. Every field is a reading, so any of them may be
 * unknown with its reason; the commitments come from the conditions snapshot (absent when none
 * was sampled).
 */
export interface SituationInput {
  readonly goal: Reading<GoalInput>;
  readonly attempts: Reading<AttemptsInput>;
  readonly board: Reading<BoardSummary>;
  readonly conditions: ConditionsSnapshot | undefined;
  readonly time: Reading<OwnerTime>;
  readonly seats: Reading<SeatsInput>;
  readonly runs: Reading<RunsInput>;
  readonly slots: Reading<SlotsInput>;
  readonly voice: Reading<VoiceInput>;
  readonly budget: Reading<BudgetInput>;
}

/** A rendered brief: the words, and each field's read state — the shape a run records. */
export type SituationBrief = Omit<SituationBriefRecord, 'delivered'>;

/** The first line of every brief: what it is, that a later one replaces it, that it asks nothing. */
export const briefHeading =
  'Situation brief, assembled by the harness as things stood when it was written; a later situation brief in this conversation replaces this one. It only describes; it asks nothing of you.';

/**
 * Renders the situation brief from what mecha read itself, by the brief's rules: numbers only
 * for budgets, board counts and ids; bands for anything score-like; "could not be read" with the
 * reason for anything unknown, never "none"; "at least" where a count may be short; and only the
 * owner's own words quoted. Pure: the same input always gives the same words.
 */
export function renderBrief(input: SituationInput): SituationBrief {
  const commitments = commitmentsLine(input.conditions);
  const lines = {
    goal: goalLine(input.goal),
    attempts: attemptsLine(input.attempts),
    board: boardLine(input.board),
    commitments: { text: commitments.line, field: commitments.field },
    time: timeLine(input.time),
    seats: seatsLine(input.seats),
    runs: runsLine(input.runs),
    slots: slotsLine(input.slots),
    voice: voiceLine(input.voice),
    budget: budgetLine(input.budget),
  };
  const body = Object.values(lines)
    .flatMap((line) => (line.text === undefined ? [] : [`- ${line.text}`]))
    .join('\n');
  return {
    text: `${briefHeading}\n${body}`,
    fields: {
      goal: lines.goal.field,
      attempts: lines.attempts.field,
      board: lines.board.field,
      commitments: lines.commitments.field,
      time: lines.time.field,
      seats: lines.seats.field,
      runs: lines.runs.field,
      slots: lines.slots.field,
      voice: lines.voice.field,
      budget: lines.budget.field,
    },
  };
}
