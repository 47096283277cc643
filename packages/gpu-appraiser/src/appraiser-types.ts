import type { Either, Refusal } from '@mecha/errors';
import type { CompletionModel, DeviceScheduler } from '@mecha/local-model';
import type { AppraisalLimits, LimitProblem } from './appraisal-limits.js';
import type { AppraisalPolicy, FlagSet } from './controls.js';
import type { ContextRevision, RenderedContext } from './render-context.js';
import type { Embedder, SimilarityMethod } from './similarity.js';

// The appraiser's public shapes: what `openAppraiser` takes and what its methods answer.

/** The most recent eligible assessments a correction context holds. */
export const correctionContextLimit = 16;

/** Where the appraiser keeps its memory and journal, and the model it runs on. */
export interface AppraiserOptions {
  /** A folder: `memory.sqlite` and `journal.jsonl` live in it (created when missing). */
  readonly directory: string;
  /** The resident model, shared through a device scheduler; needed only to run work. */
  readonly model?: CompletionModel | DeviceScheduler;
  /**
   * What recall embeds reports with. Defaults to `model`'s own embeddings when it has them (a
   * loaded `LocalModel` does); without either, recall ranks by word overlap.
   */
  readonly embedder?: Embedder;
  readonly clock?: () => Date;
}

/** An external report to retain. */
export interface RetainSourceInput {
  readonly text: string;
  readonly owner: string;
  readonly scope: string;
  /** The admitted subject id. Without one the source gets no queue. */
  readonly subject?: string;
  /** An admitted task id; task trust also needs its authored descriptor (`describeTask`). */
  readonly task?: string;
}

/** What retaining did. */
export interface RetainResult {
  readonly sourceId: number;
  /** The pending queue object, or null with the reason there is none. */
  readonly queueId: number | null;
  readonly reason?: 'no_subject' | 'writes_off' | 'imported_configuration';
}

/** A queue state. */
export type QueueState = 'pending' | 'complete' | 'refused' | 'interrupted';

/** One recorded control and where it stands. */
export interface ControlRecord {
  readonly id: number;
  readonly kind: 'flags' | 'limits' | 'policy' | 'import';
  readonly value: unknown;
  readonly state: 'pending' | 'applied' | 'refused';
  readonly reason?: string;
}

/** Flags to switch on (true) or off (false); the flags not named keep their setting. */
export interface FlagSwitches {
  readonly writes?: boolean;
  readonly recall?: boolean;
  readonly background?: boolean;
}

/** A whole configuration: the flags, the policy, whether it was imported, and the limits. */
export interface AppraisalConfiguration {
  readonly flags: FlagSet;
  readonly policy: AppraisalPolicy;
  /** An imported previous configuration: recall only, no new writes or generation. */
  readonly imported: boolean;
  readonly limits: AppraisalLimits;
}

/** A control recorded: pending until a quiet boundary. */
export interface ControlPending {
  readonly id: number;
  /** The configuration that will hold once every pending control is applied. */
  readonly configuration: AppraisalConfiguration;
}

/**
 * A control refused (limits out of range): recorded as refused under `id`, nothing changed;
 * `message` joins the `problems`.
 */
export interface ControlRefusal extends Refusal<'rejected'> {
  readonly id: number;
  readonly problems: readonly LimitProblem[];
  readonly configuration: AppraisalConfiguration;
}

/** A control's answer: pending until a quiet boundary, or refused with nothing changed. */
export type ControlResult = Either<ControlRefusal, ControlPending>;

/** Everything `status` reports. */
export interface AppraiserStatus {
  readonly flags: FlagSet;
  readonly policy: AppraisalPolicy;
  readonly imported: boolean;
  /**
   * The scheduler hold: while `held`, no appraisal starts a model call (a tick) in any process;
   * `waiting` names the process suspended at it, if one is.
   */
  readonly hold: { readonly held: boolean; readonly waiting: number | null };
  /** The process working on this memory now (holding `work.lock`), if any. */
  readonly worker: number | null;
  readonly configVersion: number;
  readonly limits: AppraisalLimits;
  /** Controls recorded and not yet applied. */
  readonly pending: readonly ControlRecord[];
  readonly processor: string;
  readonly queue: Readonly<Record<QueueState, number>>;
  /** Queue objects bound to the previous processor: readable, never run under this one. */
  readonly boundToPreviousProcessor: number;
  readonly sources: number;
  readonly assessments: { readonly current: number; readonly superseded: number };
  /** What opening found in the journal. */
  readonly journal: {
    readonly tornBytes: number;
    readonly unreadableLines: number;
    readonly recoveredInterrupted: number;
    readonly recoveredApplied: number;
    readonly recoveredRefused: number;
    /** Recovery waits while another live process works on this memory; it runs when that ends. */
    readonly recoveryDeferred: boolean;
  };
}

/** One source's outcome in a run. */
export interface RunItem {
  readonly queueId: number;
  readonly sourceId: number;
  readonly state: 'complete' | 'refused' | 'interrupted';
  readonly reason?: string;
  readonly assessmentId?: number;
}

/** Why a run did what it did. */
export type RunState =
  | 'done'
  | 'off'
  | 'imported_configuration'
  | 'paused'
  | 'stopped'
  | 'background_off'
  | 'no_model'
  | 'cancelled'
  | 'preempted'
  | 'busy';

/** What a run did. */
export interface RunReport {
  readonly state: RunState;
  readonly items: readonly RunItem[];
  readonly modelCalls: number;
}

/** What `run` is asked. */
export interface RunOptions {
  /** Background work: only when the background flag is on, and foreground work preempts it. */
  readonly background?: boolean;
  readonly signal?: AbortSignal;
}

/** A run asked of the serving process, and where it stands. */
export interface RunRequestState {
  readonly id: number;
  readonly state: 'waiting' | 'running' | 'done';
  /** The run's report, once done. */
  readonly report?: RunReport;
}

/** What `retry` did per queue object. */
export interface RetryItem {
  readonly queueId: number;
  readonly state: 'pending' | 'refused';
  readonly reason?: string;
}

/** A stored assessment, unknown dimensions as null. */
export interface StoredAssessment {
  readonly id: number;
  readonly schema: 1 | 2;
  readonly queueId: number | null;
  readonly sourceId: number;
  readonly subject: string;
  readonly owner: string;
  readonly scope: string;
  readonly processor: string;
  readonly model: string;
  readonly support: 0 | 1;
  readonly benefit: number | null;
  readonly harm: number | null;
  readonly arousal: number | null;
  readonly consequence: number;
  readonly confidence: number | null;
  readonly evidence: string;
  /** Schema 2 only. */
  readonly task?: string;
  readonly commitment?: string;
  readonly correction?: 0 | 1;
  readonly quotes: readonly string[];
  readonly status: 'current' | 'superseded' | 'withdrawn' | 'protected' | 'expired';
  readonly relationship: StoredRelationship | null;
}

/** A stored relationship. */
export interface StoredRelationship {
  readonly id: number;
  readonly taskId: string | null;
  readonly regardGain: number | null;
  readonly regardLoss: number | null;
  readonly trustGain: number | null;
  readonly trustLoss: number | null;
  readonly exposure: 1;
  readonly spans: readonly {
    readonly field: string;
    readonly start: number;
    readonly end: number;
  }[];
  readonly status: StoredAssessment['status'];
}

/** A recall request. */
export interface RecallRequest {
  readonly owner: string;
  readonly scope: string;
  readonly query: string;
  /** The task constraint: only sources admitted with this task; task trust only for it. */
  readonly task?: string;
  /** The participant constraint: only sources about (subject) or reported by (owner) them. */
  readonly participant?: string;
  /** Explicit appraisal controls: used as given; recall defaults then add nothing of their own. */
  readonly appraisal?: { readonly priority: number };
  /** The context revision (default 4); an unknown one is refused. */
  readonly revision?: number;
  /** The caller's request, written after the memory. */
  readonly request?: string;
}

/** What recall found: the ranked sources and the context rendered from them. */
export interface RecalledContext {
  /** Which similarity ranked the reports: the model's embeddings, or word overlap without one. */
  readonly similarity: SimilarityMethod;
  /** Why word overlap ran although an embedder was there (embedding failed), in words. */
  readonly fallback?: string;
  readonly ranked: readonly { readonly sourceId: number; readonly score: number }[];
  readonly context: RenderedContext;
}

/** Why recall or a shared lease was refused: a context revision this build does not render. */
export type RecallRefusal = Refusal<'rejected'>;

/** Recall's answer. */
export type RecallResult = Either<RecallRefusal, RecalledContext>;

/** A shared context lease: the revision and the exact rendering it was given. */
export interface SharedLease {
  readonly leaseId: number;
  readonly revision: ContextRevision;
  /** The rendering policy: the revision's own. */
  readonly policy: number;
  readonly context: RenderedContext;
  /** Whether rendering the recorded groups again gives the recorded bytes exactly. */
  readonly reproduced: boolean;
}

/**
 * Why a lease was refused: a revision this build does not render (`rejected`), no such lease
 * (`not_found`), or a recorded lease of a revision unknown to this build (`unreadable`).
 */
export type LeaseRefusal = Refusal<'rejected' | 'not_found' | 'unreadable'>;

/** A shared lease made or read again, or why not. */
export type LeaseResult = Either<LeaseRefusal, SharedLease>;

/** The revision new shared leases use. */
export const sharedLeaseRevision = 4;

/** The appraiser over its memory: intake, controls, work, recovery and recall. */
export interface Appraiser {
  readonly directory: string;
  retainSource(input: RetainSourceInput): RetainResult;
  /** Records (or replaces) a task's authored descriptor: the cue task trust is checked against. */
  describeTask(taskId: string, descriptor: string): void;
  /**
   * `on` (writes and recall; keeps background), `off` (all three), or only the flags named
   * switched (`{ background: true }`, `{ recall: false }`, …): pending until a quiet boundary.
   */
  setAppraisal(setting: 'on' | 'off' | FlagSwitches): ControlResult;
  /** `paused` and `stopped` suspend appraisal admission; `run` admits again. Pending like any control. */
  setPolicy(policy: AppraisalPolicy): ControlResult;
  /** The configuration once every pending control is applied. */
  configuration(): AppraisalConfiguration;
  /** Validated at once: a refusal is a status; accepted limits are pending like any control. */
  setLimits(limits: Partial<AppraisalLimits>): ControlResult;
  /** Imports a previous configuration: recall is permitted, new writes and generation are not. */
  importConfiguration(previous: { readonly flags: number }): ControlResult;
  /** Applies pending controls; done by intake, run and retry at their start. */
  applyPending(): readonly ControlRecord[];
  /**
   * The scheduler hold, at once and for every process on this memory: no appraisal model call
   * (tick) starts while it is held; a control requested meanwhile cancels when ticks resume.
   */
  hold(): void;
  release(): void;
  status(): AppraiserStatus;
  run(options?: RunOptions): Promise<RunReport>;
  retry(queueIds?: readonly number[]): readonly RetryItem[];
  assessments(filter?: { readonly subject?: string }): readonly StoredAssessment[];
  queueState(queueId: number): QueueState | undefined;
  /**
   * Ranks the scope's reports against the query (by the embedder's cosine similarity when there
   * is one, else word overlap; the floor before any priority) and renders the bounded context.
   */
  recall(request: RecallRequest): Promise<RecallResult>;
  /**
   * Recalls and records the context as a shared lease: always revision 4 (another revision is
   * refused), with its groups and exact rendering.
   */
  shareContext(request: RecallRequest): Promise<LeaseResult>;
  /**
   * A recorded lease, exactly as it was rendered, whatever its (known) revision; an unknown
   * revision or lease is refused.
   */
  readLease(leaseId: number): LeaseResult;
  /** The live process serving this memory (`serveAppraiser`, `mecha appraiser serve`), if any. */
  serving(): number | null;
  /**
   * Asks the serving process for a run (it holds the model; this process loads none), answering
   * the request's id; `runRequest` reads its state and, once done, its report.
   */
  requestRun(options?: { readonly background?: boolean }): number;
  runRequest(id: number): RunRequestState | undefined;
  /** Marks a source unavailable: its evidence is no longer a correction target or recalled. */
  withdrawSource(sourceId: number): void;
  close(): void;
}

/** A queue row as stored (internal). */
export interface QueueRow {
  readonly id: number;
  readonly source_id: number;
  readonly processor: string;
  readonly config_version: number;
  readonly task_descriptor: string | null;
}

/** A source row as stored (internal). */
export interface SourceRow {
  readonly id: number;
  readonly version: number;
  readonly text: string;
  readonly owner: string;
  readonly scope: string;
  readonly subject: string | null;
  readonly task_id: string | null;
  readonly available: number;
}
