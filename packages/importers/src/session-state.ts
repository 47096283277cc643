import type { EventSource, StopCause } from '@mecha/appraisal-core';

/** The agent CLIs whose logs can be imported; each is also the surface its runs are marked with. */
export type ImportTool = 'claude-code' | 'codex';

/** The benchmark agents whose trials can be read as sessions (see `readBenchmarkJobs`). */
export type BenchmarkAgent = 'mini-swe-agent' | 'harbor';

/**
 * Where one imported session stands between passes: the turn reached, the run left open, and
 * what the next line needs to be read in context. Plain JSON, kept in the import ledger.
 */
export interface SessionState {
  readonly v: 1;
  readonly sessionId: string;
  readonly tool: ImportTool | BenchmarkAgent;
  /** The turn of the latest step, or -1 before the first. */
  turn: number;
  /** Runs started so far. */
  runs: number;
  /** Messages, calls and other minted ids so far. */
  seq: number;
  /** The open run, if any, and what its last event was. */
  run: {
    id: string;
    last: 'start' | 'owner' | 'assistant' | 'call' | 'result';
    denialTurn?: number;
  } | null;
  /** The last run's id, for a signal that arrives once a run has ended. */
  lastRunId: string | null;
  /**
   * A run end seen, written once the step it closes has no more parts. A `tentative` one is an
   * answer with no tool call so far: a call in the same step takes it back; anything else after
   * it (or the tool's own word that the turn ended) writes it.
   */
  pendingEnd: { at: string; cause: StopCause; tentative?: boolean; source?: EventSource } | null;
  /** The source's key of the assistant step in progress (one API response spans several lines). */
  stepKey: string | null;
  /** Whether any tool result has come back: after one, the conversation's taint is unknown. */
  sawToolResult: boolean;
  /** A compaction was recorded and no message has come since (one compaction, two records). */
  compactedSinceMessage: boolean;
  /** The latest timestamp seen, for records that carry none. */
  lastAt: string | null;
  workspace: string | null;
  personPresent: boolean | null;
  /** Whether the assistant step in progress has made a tool call (absent in older ledgers). */
  stepHasCall?: boolean;
  /**
   * Claude Code's permission mode as the latest user line gave it (absent when none did). Under
   * `bypassPermissions` no permission prompt can appear, so a rejected call is an interrupt.
   */
  permissionMode?: string;
  /** Codex: calls whose command exited non-zero before their output came (`exec_command_end`). */
  failedCalls?: string[];
}

/** The signals an import counted, as the appraisal will read them. */
export interface SignalCounts {
  steers: number;
  denials: number;
  compactions: number;
  ceilings: number;
  errors: number;
}

/** A fresh state for a session about to be imported. */
export function newSessionState(
  sessionId: string,
  tool: ImportTool | BenchmarkAgent,
): SessionState {
  return {
    v: 1,
    sessionId,
    tool,
    turn: -1,
    runs: 0,
    seq: 0,
    run: null,
    lastRunId: null,
    pendingEnd: null,
    stepKey: null,
    sawToolResult: false,
    compactedSinceMessage: false,
    lastAt: null,
    workspace: null,
    personPresent: null,
  };
}
