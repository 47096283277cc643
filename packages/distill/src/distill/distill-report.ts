import type { ScoringReport } from './score-predictions.js';
import type { SessionOutcome, SessionResult } from './session-outcome.js';

/** A surprise as printed: control characters stripped, and whether it went to the graph. */
export interface PrintedSurprise {
  readonly sessionId: string;
  readonly about: string;
  readonly graphSaid: string;
  readonly found: string;
  readonly sentToGraph: boolean;
}

/** Where a run is, for a progress bar. */
export interface DistillProgress {
  /** Sessions finished so far. */
  readonly done: number;
  /** Sessions this run looks at (after the ledger, the exclusions and `limit`). */
  readonly total: number;
  readonly sessionId: string;
  readonly step: 'reading' | 'distilling' | 'appraising' | 'extracting' | 'pushing' | 'finished';
  /** With step `finished`. */
  readonly outcome?: SessionOutcome;
}

/** Why a run ended before it looked at every session. */
export interface DistillStop {
  readonly reason: 'aborted' | 'graph_unavailable' | 'model_unavailable';
  readonly message: string;
}

/** What a run did, ready to render (see `formatDistillReport`). */
export interface DistillReport {
  readonly server: string;
  /** Whether the server's read-back is marked untrusted (`[mcp.capabilities] untrusted_input`). */
  readonly readBackUntrusted: boolean;
  readonly dryRun: boolean;
  /** Sessions in the store. */
  readonly listed: number;
  /** Sessions the ledger already holds. */
  readonly alreadyDistilled: number;
  /** Development and experiment sessions, never distilled. */
  readonly excluded: number;
  /** Sessions this run looked at. */
  readonly considered: number;
  /** The ledger or the session list had damaged lines. */
  readonly partialStores: boolean;
  readonly counts: Readonly<Record<SessionOutcome, number>>;
  readonly graph: {
    readonly inserted: number;
    readonly updated: number;
    readonly unchanged: number;
  };
  readonly corrections: {
    readonly reported: number;
    readonly sent: number;
    /** Sent, but not found in the owner's own words: they wait in review and close nothing. */
    readonly ungrounded: number;
    /** Not sent: the session's timeline was third-party or unknown. */
    readonly withheld: number;
    readonly applied: number;
    readonly denied: number;
    readonly toReview: number;
    readonly duplicate: number;
  };
  readonly surprises: {
    readonly reported: number;
    readonly sent: number;
    readonly withheld: number;
    /** Every surprise, for the terminal, whatever the session's taint. */
    readonly items: readonly PrintedSurprise[];
  };
  readonly appraisals: {
    readonly written: number;
    /** Sessions that already had one; none is written twice. */
    readonly onRecord: number;
    readonly failed: number;
    readonly claimsKept: number;
    readonly claimsDropped: Readonly<Record<string, number>>;
    /** Goals named (the session's, or a per-goal judgment's) that mecha does not hold: recorded as none. */
    readonly goalsUnresolved: number;
    /** The appraisal store could not be read, so no appraisal was asked for. */
    readonly storeUnreadable: boolean;
  };
  /**
   * Candidate facts the local model extracted from pushed episodes under a grammar, sent as the
   * episode's `meta.entities`/`meta.relations` for the graph to queue for review (never beliefs).
   */
  readonly facts: {
    /** Episodes whose facts the model extracted. */
    readonly episodes: number;
    readonly entities: number;
    readonly relations: number;
    /** Proposed but not carried by the episode's own words, by reason. */
    readonly dropped: Readonly<Record<string, number>>;
    /** Extractions that failed: those episodes went with no extracted facts (the graph's own extractor reads their prose). */
    readonly failed: number;
  };
  /** Counterfactual reflections from decided comparisons (no model); absent when the step did not run. */
  readonly counterfactuals?: {
    readonly written: number;
    /** Decided comparisons of sessions with no appraisal yet: they wait for a later pass. */
    readonly waiting: number;
    /** A dry run: how many would have been written. */
    readonly wouldWrite?: number;
    readonly failed: boolean;
    /** A comparison, reflection or appraisal store could not be read: none was written. */
    readonly storesUnreadable: boolean;
  };
  readonly modelCalls: number;
  readonly graphCalls: number;
  readonly ledgerReads: number;
  readonly sessions: readonly SessionResult[];
  /** The predictions checked after the sessions (absent on a dry run, a run stopped early, or `score: false`). */
  readonly scoring?: ScoringReport;
  readonly stopped?: DistillStop;
}

/** A run that could not start, and the message that says why. */
export interface DistillRefusal {
  readonly state: 'cannot_run';
  readonly reason:
    | 'no_home'
    | 'config_invalid'
    | 'no_server'
    | 'ledger_unreadable'
    | 'sessions_unreadable';
  readonly message: string;
}

/** What `distill` returns: a report, or why it could not run at all. */
export type DistillResult =
  | { readonly state: 'done'; readonly report: DistillReport }
  | DistillRefusal;
