import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CompletionModel,
  type CompletionResult,
  createDeviceScheduler,
  type DevicePriority,
  type DeviceScheduler,
  lockHolder,
  releaseLock,
  type ScheduledResult,
  takeLock,
} from '@mecha/local-model';
import type Database from 'better-sqlite3';
import {
  type AppraisalLimits,
  defaultAppraisalLimits,
  type LimitProblem,
  validateAppraisalLimits,
} from './appraisal-limits.js';
import { AppraiserInputError } from './appraiser-error.js';
import {
  type AppraisalPolicy,
  defaultFlags,
  type FlagSet,
  flagSet,
  flagsForOff,
  flagsForOn,
  flagsWithBackground,
} from './controls.js';
import { type Interpretation, unknownValue } from './interpretation.js';
import { buildInterpretationGrammar } from './interpretation-grammar.js';
import { Journal, type JournalRecord } from './journal.js';
import { isWellFormed, utf8Bytes } from './json-text.js';
import { openMemoryDatabase } from './memory-schema.js';
import { parseInterpretation } from './parse-interpretation.js';
import { type Parsed, parseQuotes } from './parse-quotes.js';
import { currentProcessor, isKnownProcessor } from './processor.js';
import {
  type CorrectionCandidate,
  interpretPrompt,
  type PromptSource,
  promptBytes,
  quotePrompt,
} from './prompts.js';
import { buildQuoteGrammar } from './quote-grammar.js';
import { type RecallCandidate, selectRecall } from './recall-selection.js';
import {
  type ContextGroup,
  type ContextRevision,
  contextRevisions,
  currentContextRevision,
  type RenderedContext,
  renderContext,
} from './render-context.js';
import { wordOverlap } from './word-overlap.js';

/** How often a run suspended by the scheduler hold looks at the store for the release. */
const holdPollMs = 20;

/** The most recent eligible assessments a correction context holds. */
export const correctionContextLimit = 16;

/** Where the appraiser keeps its memory and journal, and the model it runs on. */
export interface AppraiserOptions {
  /** A folder: `memory.sqlite` and `journal.jsonl` live in it (created when missing). */
  readonly directory: string;
  /** The resident model, shared through a device scheduler; needed only to run work. */
  readonly model?: CompletionModel | DeviceScheduler;
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

/** A whole configuration: the flags, the policy, whether it was imported, and the limits. */
export interface AppraisalConfiguration {
  readonly flags: FlagSet;
  readonly policy: AppraisalPolicy;
  /** An imported previous configuration: recall only, no new writes or generation. */
  readonly imported: boolean;
  readonly limits: AppraisalLimits;
}

/**
 * A control's answer: pending until a quiet boundary, with the configuration that will hold once
 * every pending control is applied; or refused as a status, nothing changed.
 */
export type ControlResult =
  | {
      readonly state: 'pending';
      readonly id: number;
      readonly configuration: AppraisalConfiguration;
    }
  | {
      readonly state: 'refused';
      readonly id: number;
      readonly problems: readonly LimitProblem[];
      readonly configuration: AppraisalConfiguration;
    };

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

/** Recall's answer. */
export type RecallResult =
  | {
      readonly state: 'ok';
      readonly ranked: readonly { readonly sourceId: number; readonly score: number }[];
      readonly context: RenderedContext;
    }
  | { readonly state: 'refused'; readonly reason: string };

/** A shared context lease: the revision and the exact rendering it was given. */
export type LeaseResult =
  | {
      readonly state: 'ok';
      readonly leaseId: number;
      readonly revision: ContextRevision;
      /** The rendering policy: the revision's own. */
      readonly policy: number;
      readonly context: RenderedContext;
      /** Whether rendering the recorded groups again gives the recorded bytes exactly. */
      readonly reproduced: boolean;
    }
  | { readonly state: 'refused'; readonly reason: string };

/** The revision new shared leases use. */
export const sharedLeaseRevision = 4;

/** The appraiser over its memory: intake, controls, work, recovery and recall. */
export interface Appraiser {
  readonly directory: string;
  retainSource(input: RetainSourceInput): RetainResult;
  /** Records (or replaces) a task's authored descriptor: the cue task trust is checked against. */
  describeTask(taskId: string, descriptor: string): void;
  /** `on` (keeps background), `off`, or background on/off: pending until a quiet boundary. */
  setAppraisal(setting: 'on' | 'off' | { readonly background: boolean }): ControlResult;
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
  recall(request: RecallRequest): RecallResult;
  /**
   * Recalls and records the context as a shared lease: always revision 4 (another revision is
   * refused), with its groups and exact rendering.
   */
  shareContext(request: RecallRequest): LeaseResult;
  /**
   * A recorded lease, exactly as it was rendered, whatever its (known) revision; an unknown
   * revision or lease is refused.
   */
  readLease(leaseId: number): LeaseResult;
  /** Marks a source unavailable: its evidence is no longer a correction target or recalled. */
  withdrawSource(sourceId: number): void;
  close(): void;
}

interface QueueRow {
  readonly id: number;
  readonly source_id: number;
  readonly processor: string;
  readonly config_version: number;
  readonly task_descriptor: string | null;
}

interface SourceRow {
  readonly id: number;
  readonly version: number;
  readonly text: string;
  readonly owner: string;
  readonly scope: string;
  readonly subject: string | null;
  readonly task_id: string | null;
  readonly available: number;
}

const known = (value: number): number | null => (value === unknownValue ? null : value);

/** Byte offsets of the first occurrence of `part` in `text`. */
function span(text: string, part: string): { start: number; end: number } | undefined {
  const at = text.indexOf(part);
  if (at === -1 || part === '') return undefined;
  const start = utf8Bytes(text.slice(0, at));
  return { start, end: start + utf8Bytes(part) };
}

/**
 * Opens the appraiser's memory in `directory`, and before anything else can publish, recovers
 * from the journal: work that ended inside a call is recorded interrupted, a recorded complete
 * answer is re-checked and applied without a new model call, and a result of an unknown
 * processor is refused. Appraisal starts off: nothing is queued until `on` is applied.
 */
export function openAppraiser(options: AppraiserOptions): Appraiser {
  const directory = options.directory;
  mkdirSync(directory, { recursive: true });
  const clock = options.clock ?? (() => new Date());
  const now = () => clock().toISOString();
  const db: Database.Database = openMemoryDatabase(join(directory, 'memory.sqlite'));
  const journal = new Journal(join(directory, 'journal.jsonl'));
  const workLock = join(directory, 'work.lock');
  let device: DeviceScheduler | undefined;
  let active: AbortController | undefined;
  /** Why the active run's controller was aborted by the appraiser itself. */
  let activeReason: 'control' | undefined;
  /** Whether this handle holds `work.lock` (runs while it does). */
  let holdingLock = false;

  const get = (key: string): string | undefined =>
    (
      db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
        | { value: string }
        | undefined
    )?.value;
  const put = (key: string, value: string) =>
    db
      .prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  const flags = () => Number(get('flags') ?? defaultFlags);
  const policy = () => (get('policy') ?? 'run') as AppraisalPolicy;
  const imported = () => get('imported') === '1';
  const configVersion = () => Number(get('config_version') ?? 0);
  const limits = (): AppraisalLimits => ({
    ...defaultAppraisalLimits,
    ...(JSON.parse(get('limits') ?? '{}') as Partial<AppraisalLimits>),
  });

  function queueState(queueId: number): QueueState | undefined {
    const row = db
      .prepare('SELECT state FROM queue_versions WHERE queue_id = ? ORDER BY version DESC LIMIT 1')
      .get(queueId) as { state: QueueState } | undefined;
    return row?.state;
  }

  function addQueueVersion(queueId: number, state: QueueState, reason?: string): void {
    const last = db
      .prepare('SELECT MAX(version) AS v FROM queue_versions WHERE queue_id = ?')
      .get(queueId) as { v: number | null };
    db.prepare(
      'INSERT INTO queue_versions (queue_id, version, state, reason, at) VALUES (?, ?, ?, ?, ?)',
    ).run(queueId, (last.v ?? 0) + 1, state, reason ?? null, now());
  }

  const sourceRow = (id: number) =>
    db.prepare('SELECT * FROM sources WHERE id = ?').get(id) as SourceRow | undefined;
  const queueRow = (id: number) =>
    db.prepare('SELECT * FROM queue WHERE id = ?').get(id) as QueueRow | undefined;

  function currentDescriptor(taskId: string | null): string | undefined {
    if (taskId === null) return undefined;
    const row = db
      .prepare('SELECT descriptor FROM task_cues WHERE task_id = ? AND current = 1')
      .get(taskId) as { descriptor: string } | undefined;
    return row?.descriptor;
  }

  function correctionCandidates(source: SourceRow): CorrectionCandidate[] {
    if (source.subject === null) return [];
    return db
      .prepare(
        `SELECT a.id, a.evidence FROM assessments a JOIN sources s ON s.id = a.source_id
         WHERE a.subject = ? AND a.owner = ? AND a.scope = ? AND a.status = 'current'
           AND s.available = 1 AND a.source_id <> ?
         ORDER BY a.id DESC LIMIT ?`,
      )
      .all(
        source.subject,
        source.owner,
        source.scope,
        source.id,
        correctionContextLimit,
      ) as CorrectionCandidate[];
  }

  /** Publishes one accepted result: completed queue version, assessment, relationship, supersessions. */
  function publish(
    queue: QueueRow,
    source: SourceRow,
    quotes: readonly string[],
    answer: Interpretation,
    model: string,
    candidates: readonly CorrectionCandidate[],
  ): number {
    return db
      .transaction(() => {
        if (queueState(queue.id) === 'complete') {
          throw new AppraiserInputError(`queue #${queue.id} is already complete`);
        }
        addQueueVersion(queue.id, 'complete');
        const subject = source.subject as string;
        const assessment = db
          .prepare(
            `INSERT INTO assessments (schema, queue_id, source_id, subject, owner, scope, processor, model,
              support, benefit, harm, arousal, consequence, confidence, evidence, task, commitment,
              correction, quotes, status, created_at)
             VALUES (2, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'current', ?)`,
          )
          .run(
            queue.id,
            source.id,
            subject,
            source.owner,
            source.scope,
            queue.processor,
            model,
            answer.support,
            known(answer.benefit),
            known(answer.harm),
            known(answer.arousal),
            answer.consequence,
            known(answer.confidence),
            answer.evidence,
            answer.task,
            answer.commitment,
            answer.correction,
            JSON.stringify(quotes),
            now(),
          ).lastInsertRowid as number;
        const spans = (['evidence', 'task', 'commitment'] as const).flatMap((field) => {
          const found = span(source.text, answer[field]);
          return found ? [{ field, ...found }] : [];
        });
        db.prepare(
          `INSERT INTO relationships (assessment_id, queue_id, subject, owner, scope, task_id,
            regard_gain, regard_loss, trust_gain, trust_loss, exposure, spans, status)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, 'current')`,
        ).run(
          assessment,
          queue.id,
          subject,
          source.owner,
          source.scope,
          answer.task === '' ? null : source.task_id,
          known(answer.regard_gain),
          known(answer.regard_loss),
          known(answer.trust_gain),
          known(answer.trust_loss),
          JSON.stringify(spans),
        );
        if (answer.correction === 1) {
          for (const candidate of candidates) {
            db.prepare(
              "UPDATE assessments SET status = 'superseded' WHERE id = ? AND status = 'current'",
            ).run(candidate.id);
            db.prepare(
              "UPDATE relationships SET status = 'superseded' WHERE assessment_id = ? AND status = 'current'",
            ).run(candidate.id);
            db.prepare(
              'INSERT INTO supersessions (superseded, by_assessment, at) VALUES (?, ?, ?)',
            ).run(candidate.id, assessment, now());
          }
        }
        return assessment;
      })
      .immediate();
  }

  function finish(queueId: number, outcome: 'refused' | 'interrupted', reason: string): void {
    db.transaction(() => addQueueVersion(queueId, outcome, reason)).immediate();
    journal.append({ kind: 'end', queue: queueId, outcome, reason });
  }

  function interpretationCheck(
    source: SourceRow,
    queue: QueueRow,
    quotes: readonly string[],
    targets: number,
  ) {
    return {
      source: source.text,
      quotes,
      correctionTargets: targets,
      ...(source.task_id === null ? {} : { taskId: source.task_id }),
      ...(queue.task_descriptor === null ? {} : { taskDescriptor: queue.task_descriptor }),
    };
  }

  // ---- recovery: before anything else can publish ----
  // The journal belongs to whichever process works on this memory; while another live one
  // does, its open work is not ours to end, and recovery waits for the next run here.
  let read: ReturnType<Journal['open']> = { records: [], tornBytes: 0, unreadableLines: 0 };
  const recovered = { interrupted: 0, applied: 0, refused: 0 };
  let recoveryDeferred = lockHolder(workLock) !== undefined;
  if (!recoveryDeferred) recover();

  function recover(): void {
    recoveryDeferred = false;
    read = journal.open();
    const open = new Map<number, JournalRecord[]>();
    for (const record of read.records) {
      if (record.kind === 'begin') open.set(record.queue, [record]);
      else if (record.kind === 'response') open.get(record.queue)?.push(record);
      else open.delete(record.queue);
    }
    for (const [queueId, records] of open) {
      const begin = records[0] as Extract<JournalRecord, { kind: 'begin' }>;
      const queue = queueRow(queueId);
      const source = queue ? sourceRow(queue.source_id) : undefined;
      if (!queue || !source) {
        journal.append({
          kind: 'end',
          queue: queueId,
          outcome: 'refused',
          reason: 'the journal names a queue object this memory does not hold',
        });
        recovered.refused += 1;
        continue;
      }
      if (queueState(queueId) === 'complete') {
        journal.append({ kind: 'end', queue: queueId, outcome: 'complete' });
        continue;
      }
      const processors = records.map((record) => ('processor' in record ? record.processor : ''));
      if (processors.some((processor) => !isKnownProcessor(processor))) {
        finish(queueId, 'refused', 'the recorded result names an unknown processor contract');
        recovered.refused += 1;
        continue;
      }
      const second = records.find(
        (record): record is Extract<JournalRecord, { kind: 'response' }> =>
          record.kind === 'response' && record.phase === 2,
      );
      if (
        second &&
        second.stopReason === 'grammar' &&
        second.processor === currentProcessor &&
        second.quotes
      ) {
        // The complete answer was recorded: re-check its bytes and apply them, no new call.
        const candidates = correctionCandidates(source);
        const parsed = parseInterpretation(
          second.text,
          interpretationCheck(source, queue, second.quotes, candidates.length),
        );
        if (parsed.ok) {
          publish(queue, source, second.quotes, parsed.value, begin.model, candidates);
          journal.append({ kind: 'end', queue: queueId, outcome: 'complete' });
          recovered.applied += 1;
        } else {
          finish(queueId, 'refused', parsed.reason);
          recovered.refused += 1;
        }
        continue;
      }
      finish(queueId, 'interrupted', 'the journal ends inside this work (recorded at startup)');
      recovered.interrupted += 1;
    }
  }

  /** The applied configuration with every pending control folded in, in order. */
  function projectedConfiguration(): AppraisalConfiguration {
    let flagValue = flags();
    let policyValue = policy();
    let importedValue = imported();
    let limitValue = limits();
    for (const control of controls('pending')) {
      if (control.kind === 'flags') {
        flagValue = Number(control.value);
        importedValue = false;
      } else if (control.kind === 'policy') policyValue = control.value as AppraisalPolicy;
      else if (control.kind === 'limits')
        limitValue = { ...limitValue, ...(control.value as Partial<AppraisalLimits>) };
      else {
        flagValue = Number(control.value);
        importedValue = true;
      }
    }
    return {
      flags: flagSet(flagValue),
      policy: policyValue,
      imported: importedValue,
      limits: limitValue,
    };
  }

  function pendingResult(id: number): ControlResult {
    return { state: 'pending', id, configuration: projectedConfiguration() };
  }

  function recordControl(kind: ControlRecord['kind'], value: unknown): number {
    if (active) {
      activeReason = 'control';
      active.abort();
    }
    return db
      .prepare(
        "INSERT INTO controls (kind, value, state, requested_at) VALUES (?, ?, 'pending', ?)",
      )
      .run(kind, JSON.stringify(value), now()).lastInsertRowid as number;
  }

  function latestFlags(): number {
    const row = db
      .prepare(
        "SELECT value FROM controls WHERE kind = 'flags' AND state = 'pending' ORDER BY id DESC LIMIT 1",
      )
      .get() as { value: string } | undefined;
    return row ? Number(JSON.parse(row.value)) : flags();
  }

  function controls(state: ControlRecord['state']): ControlRecord[] {
    return (
      db
        .prepare('SELECT id, kind, value, state, reason FROM controls WHERE state = ? ORDER BY id')
        .all(state) as {
        id: number;
        kind: ControlRecord['kind'];
        value: string;
        state: ControlRecord['state'];
        reason: string | null;
      }[]
    ).map((row) => ({
      id: row.id,
      kind: row.kind,
      value: JSON.parse(row.value) as unknown,
      state: row.state,
      ...(row.reason === null ? {} : { reason: row.reason }),
    }));
  }

  function applyPending(): readonly ControlRecord[] {
    // A quiet boundary: no run working on this memory, here or in another process.
    if (!holdingLock && lockHolder(workLock) !== undefined) return [];
    const pending = controls('pending');
    if (pending.length === 0) return [];
    db.transaction(() => {
      let version = configVersion();
      for (const control of pending) {
        version += 1;
        if (control.kind === 'flags') {
          put('flags', String(control.value));
          // An explicit appraisal control selects the current processor for new work.
          put('imported', '0');
        } else if (control.kind === 'policy') put('policy', String(control.value));
        else if (control.kind === 'limits')
          put('limits', JSON.stringify({ ...limits(), ...(control.value as object) }));
        else if (control.kind === 'import') {
          put('flags', String(control.value));
          put('imported', '1');
        }
        db.prepare(
          "UPDATE controls SET state = 'applied', applied_at = ?, config_version = ? WHERE id = ?",
        ).run(now(), version, control.id);
      }
      put('config_version', String(version));
    }).immediate();
    return pending;
  }

  function retainSource(input: RetainSourceInput): RetainResult {
    for (const field of ['text', 'owner', 'scope'] as const) {
      const value = input[field];
      if (typeof value !== 'string' || value.trim() === '') {
        throw new AppraiserInputError(`A report needs a non-empty ${field}.`);
      }
    }
    if (!isWellFormed(input.text)) {
      throw new AppraiserInputError(
        'The report is not well-formed text (it holds a lone surrogate); nothing was retained.',
      );
    }
    if (input.subject !== undefined && input.subject.trim() === '') {
      throw new AppraiserInputError('A subject, when given, must not be empty.');
    }
    applyPending();
    return db
      .transaction((): RetainResult => {
        const sourceId = db
          .prepare(
            'INSERT INTO sources (text, owner, scope, subject, task_id, retained_at) VALUES (?, ?, ?, ?, ?, ?)',
          )
          .run(
            input.text,
            input.owner,
            input.scope,
            input.subject ?? null,
            input.task ?? null,
            now(),
          ).lastInsertRowid as number;
        if (input.subject === undefined) return { sourceId, queueId: null, reason: 'no_subject' };
        if (imported()) return { sourceId, queueId: null, reason: 'imported_configuration' };
        if (!flagSet(flags()).writes) return { sourceId, queueId: null, reason: 'writes_off' };
        const queueId = db
          .prepare(
            'INSERT INTO queue (source_id, processor, config_version, task_descriptor, created_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(
            sourceId,
            currentProcessor,
            configVersion(),
            currentDescriptor(input.task ?? null) ?? null,
            now(),
          ).lastInsertRowid as number;
        addQueueVersion(queueId, 'pending');
        return { sourceId, queueId };
      })
      .immediate();
  }

  function deviceFor(): DeviceScheduler | undefined {
    if (device) return device;
    const model = options.model;
    if (!model) return undefined;
    device = 'at' in model ? model : createDeviceScheduler(model);
    return device;
  }

  /** The newest control id: a run cancels when a pending control newer than its start appears. */
  const newestControl = () =>
    (db.prepare('SELECT MAX(id) AS id FROM controls').get() as { id: number | null }).id ?? 0;
  const pendingSince = (id: number) =>
    db.prepare("SELECT 1 FROM controls WHERE state <> 'refused' AND id > ? LIMIT 1").get(id) !==
    undefined;
  const dataVersion = () => db.pragma('data_version', { simple: true }) as number;

  /**
   * Watches the store for controls from any process, cheaply enough for every token: SQLite's
   * `data_version` changes only when another connection (this process's or another's) commits,
   * and only then is the controls table read.
   */
  function controlWatch(controller: AbortController, since: number): () => void {
    let seen = dataVersion();
    return () => {
      if (controller.signal.aborted) return;
      const now = dataVersion();
      if (now === seen) return;
      seen = now;
      if (pendingSince(since)) {
        activeReason = 'control';
        controller.abort();
      }
    };
  }

  /**
   * The tick gate before each model call: waits while the scheduler hold is on (checking the
   * store as it waits), then lets a control requested meanwhile cancel the run as ticks resume.
   * Answers false when the run must not start the call.
   */
  async function tick(signal: AbortSignal, watch: () => void, queueId: number): Promise<boolean> {
    let waiting = false;
    let seen = -1;
    try {
      while (!signal.aborted) {
        const now = dataVersion();
        if (now !== seen) {
          seen = now;
          if (get('hold') !== '1') break;
          if (!waiting) {
            waiting = true;
            put('hold_waiting', JSON.stringify({ pid: process.pid, queue: queueId }));
          }
        }
        await sleep(holdPollMs, undefined, { ref: true });
      }
    } finally {
      if (waiting) db.prepare("DELETE FROM settings WHERE key = 'hold_waiting'").run();
    }
    watch();
    return !signal.aborted;
  }

  async function call(
    scheduler: DeviceScheduler,
    priority: DevicePriority,
    request: Parameters<CompletionModel['complete']>[0],
  ): Promise<ScheduledResult> {
    return scheduler.complete(request, priority);
  }

  /** Why a call's answer cannot be used, or undefined when it ended at the grammar's end. */
  function unusable(
    result: CompletionResult,
    limit: number,
  ): { state: 'refused' | 'interrupted'; reason: string } | undefined {
    if (result.stopReason === 'aborted') {
      const preempted = (result as ScheduledResult).preempted === true;
      return {
        state: 'interrupted',
        reason: preempted
          ? 'foreground work needed the device'
          : activeReason === 'control'
            ? 'cancelled: a new control is pending'
            : 'cancelled',
      };
    }
    if (result.stopReason === 'maxTokens')
      return {
        state: 'refused',
        reason: 'the output token limit ended the answer before the grammar did',
      };
    if (result.stopReason !== 'grammar')
      return {
        state: 'refused',
        reason: `generation ended by ${result.stopReason}, not at the grammar's end`,
      };
    if (utf8Bytes(result.text) > limit)
      return { state: 'refused', reason: `the answer exceeds ${limit} output bytes` };
    return undefined;
  }

  async function processOne(
    scheduler: DeviceScheduler,
    priority: DevicePriority,
    queue: QueueRow,
    signal: AbortSignal,
    counter: { calls: number },
    watch: () => void,
  ): Promise<RunItem | undefined> {
    const source = sourceRow(queue.source_id) as SourceRow;
    const work = limits();
    const model = (await scheduler.at(priority).identity()).sha256;
    const item = (state: RunItem['state'], reason?: string, assessmentId?: number): RunItem => ({
      queueId: queue.id,
      sourceId: source.id,
      state,
      ...(reason === undefined ? {} : { reason }),
      ...(assessmentId === undefined ? {} : { assessmentId }),
    });
    const promptSource: PromptSource = {
      text: source.text,
      owner: source.owner,
      subject: source.subject as string,
      ...(source.task_id === null ? {} : { taskId: source.task_id }),
      ...(queue.task_descriptor === null ? {} : { taskDescriptor: queue.task_descriptor }),
    };
    const first = quotePrompt(promptSource);
    if (promptBytes(first) > work.promptBytes) {
      const reason = `the prompt needs ${promptBytes(first)} bytes, over the ${work.promptBytes}-byte limit`;
      db.transaction(() => addQueueVersion(queue.id, 'refused', reason)).immediate();
      return item('refused', reason);
    }
    // Nothing has begun: a cancellation here leaves the source pending.
    if (!(await tick(signal, watch, queue.id))) return undefined;
    journal.append({
      kind: 'begin',
      queue: queue.id,
      source: source.id,
      processor: queue.processor,
      model,
    });
    counter.calls += 1;
    const one = await call(scheduler, priority, {
      prompt: first,
      grammar: { gbnf: buildQuoteGrammar(source.text) },
      maxTokens: work.outputTokens,
      signal,
      onToken: watch,
    });
    journal.append({
      kind: 'response',
      queue: queue.id,
      processor: queue.processor,
      phase: 1,
      text: one.text,
      bytes: utf8Bytes(one.text),
      stopReason: one.stopReason,
    });
    const bad1 = unusable(one, work.outputBytesPerCall);
    if (bad1) {
      finish(queue.id, bad1.state, `call 1: ${bad1.reason}`);
      return item(bad1.state, `call 1: ${bad1.reason}`);
    }
    const quotes: Parsed<readonly string[]> = parseQuotes(one.text, source.text);
    if (!quotes.ok) {
      finish(queue.id, 'refused', quotes.reason);
      return item('refused', quotes.reason);
    }
    const candidates = correctionCandidates(source);
    const second = interpretPrompt(promptSource, quotes.value, candidates);
    if (promptBytes(second) > work.promptBytes) {
      const reason = `call 2's prompt needs ${promptBytes(second)} bytes, over the ${work.promptBytes}-byte limit`;
      finish(queue.id, 'refused', reason);
      return item('refused', reason);
    }
    const descriptor = queue.task_descriptor ?? undefined;
    if (!(await tick(signal, watch, queue.id))) {
      const reason = `call 2: ${activeReason === 'control' ? 'cancelled: a new control is pending' : 'cancelled'}`;
      finish(queue.id, 'interrupted', reason);
      return item('interrupted', reason);
    }
    counter.calls += 1;
    const two = await call(scheduler, priority, {
      prompt: second,
      grammar: {
        gbnf: buildInterpretationGrammar({
          quotes: quotes.value,
          correctionAllowed: candidates.length > 0,
          ...(descriptor !== undefined &&
          source.task_id !== null &&
          source.text.split(descriptor).length === 2
            ? { taskDescriptor: descriptor }
            : {}),
        }),
      },
      maxTokens: work.outputTokens,
      signal,
      onToken: watch,
    });
    journal.append({
      kind: 'response',
      queue: queue.id,
      processor: queue.processor,
      phase: 2,
      text: two.text,
      bytes: utf8Bytes(two.text),
      stopReason: two.stopReason,
      quotes: quotes.value,
    });
    const bad2 = unusable(two, work.outputBytesPerCall);
    if (bad2) {
      finish(queue.id, bad2.state, `call 2: ${bad2.reason}`);
      return item(bad2.state, `call 2: ${bad2.reason}`);
    }
    const parsed = parseInterpretation(
      two.text,
      interpretationCheck(source, queue, quotes.value, candidates.length),
    );
    if (!parsed.ok) {
      finish(queue.id, 'refused', parsed.reason);
      return item('refused', parsed.reason);
    }
    const assessmentId = publish(queue, source, quotes.value, parsed.value, model, candidates);
    journal.append({ kind: 'end', queue: queue.id, outcome: 'complete' });
    return item('complete', undefined, assessmentId);
  }

  async function run(runOptions: RunOptions = {}): Promise<RunReport> {
    const background = runOptions.background === true;
    const report = (state: RunState, items: RunItem[] = [], modelCalls = 0): RunReport => ({
      state,
      items,
      modelCalls,
    });
    if (active) return report('busy');
    const lock = takeLock(workLock, 'appraiser run');
    if (!lock.taken) return report('busy');
    holdingLock = true;
    try {
      if (recoveryDeferred) recover();
      return await runLocked(background, runOptions.signal, report);
    } finally {
      holdingLock = false;
      releaseLock(workLock);
    }
  }

  async function runLocked(
    background: boolean,
    callerSignal: AbortSignal | undefined,
    report: (state: RunState, items?: RunItem[], modelCalls?: number) => RunReport,
  ): Promise<RunReport> {
    applyPending();
    if (imported()) return report('imported_configuration');
    const set = flagSet(flags());
    if (!set.writes) return report('off');
    if (policy() !== 'run') return report(policy() as 'paused' | 'stopped');
    if (background && !set.background) return report('background_off');
    const scheduler = deviceFor();
    if (!scheduler) return report('no_model');
    const work = limits();
    const pending = db
      .prepare(
        `SELECT q.* FROM queue q
         WHERE q.processor = ? AND (SELECT state FROM queue_versions v WHERE v.queue_id = q.id ORDER BY version DESC LIMIT 1) = 'pending'
         ORDER BY q.id LIMIT ?`,
      )
      .all(currentProcessor, work.sourceRows) as QueueRow[];
    const controller = new AbortController();
    active = controller;
    activeReason = undefined;
    const watch = controlWatch(controller, newestControl());
    const signal = callerSignal
      ? AbortSignal.any([callerSignal, controller.signal])
      : controller.signal;
    const items: RunItem[] = [];
    const counter = { calls: 0 };
    try {
      for (const queue of pending) {
        if (signal.aborted) break;
        if (counter.calls + 2 > work.ticks) break;
        const result = await processOne(
          scheduler,
          background ? 'background' : 'foreground',
          queue,
          signal,
          counter,
          watch,
        );
        if (!result) break;
        items.push(result);
        if (result.state === 'interrupted') {
          return report(
            result.reason?.startsWith('call') && result.reason.includes('foreground')
              ? 'preempted'
              : 'cancelled',
            items,
            counter.calls,
          );
        }
      }
    } finally {
      active = undefined;
    }
    return report(signal.aborted ? 'cancelled' : 'done', items, counter.calls);
  }

  function retry(queueIds?: readonly number[]): readonly RetryItem[] {
    applyPending();
    const ids =
      queueIds ??
      (
        db
          .prepare(
            `SELECT q.id FROM queue q WHERE (SELECT state FROM queue_versions v WHERE v.queue_id = q.id ORDER BY version DESC LIMIT 1) IN ('refused', 'interrupted') ORDER BY q.id`,
          )
          .all() as { id: number }[]
      ).map((row) => row.id);
    return ids.map((queueId): RetryItem => {
      const queue = queueRow(queueId);
      const state = queue ? queueState(queueId) : undefined;
      if (!queue || state === undefined)
        return { queueId, state: 'refused', reason: 'no such queue object' };
      if (queue.processor !== currentProcessor) {
        return {
          queueId,
          state: 'refused',
          reason: `bound to processor ${queue.processor.slice(0, 12)}, not the current one`,
        };
      }
      if (state !== 'refused' && state !== 'interrupted') {
        return {
          queueId,
          state: 'refused',
          reason: `it is ${state}; only refused or interrupted work is retried`,
        };
      }
      db.transaction(() => addQueueVersion(queueId, 'pending', 'explicit retry')).immediate();
      return { queueId, state: 'pending' };
    });
  }

  function relationshipOf(assessmentId: number): StoredRelationship | null {
    const row = db
      .prepare('SELECT * FROM relationships WHERE assessment_id = ?')
      .get(assessmentId) as Record<string, unknown> | undefined;
    if (!row) return null;
    return {
      id: row.id as number,
      taskId: row.task_id as string | null,
      regardGain: row.regard_gain as number | null,
      regardLoss: row.regard_loss as number | null,
      trustGain: row.trust_gain as number | null,
      trustLoss: row.trust_loss as number | null,
      exposure: 1,
      spans: JSON.parse(row.spans as string) as StoredRelationship['spans'],
      status: row.status as StoredRelationship['status'],
    };
  }

  function assessments(filter: { readonly subject?: string } = {}): StoredAssessment[] {
    const rows = (
      filter.subject === undefined
        ? db.prepare('SELECT * FROM assessments ORDER BY id').all()
        : db.prepare('SELECT * FROM assessments WHERE subject = ? ORDER BY id').all(filter.subject)
    ) as Record<string, unknown>[];
    return rows.map((row) => {
      const schema = row.schema as 1 | 2;
      const base = {
        id: row.id as number,
        schema,
        queueId: row.queue_id as number | null,
        sourceId: row.source_id as number,
        subject: row.subject as string,
        owner: row.owner as string,
        scope: row.scope as string,
        processor: row.processor as string,
        model: row.model as string,
        support: row.support as 0 | 1,
        benefit: row.benefit as number | null,
        harm: row.harm as number | null,
        arousal: row.arousal as number | null,
        consequence: row.consequence as number,
        confidence: row.confidence as number | null,
        evidence: row.evidence as string,
        quotes: JSON.parse(row.quotes as string) as string[],
        status: row.status as StoredAssessment['status'],
        relationship: relationshipOf(row.id as number),
      };
      // Schema 1 has no task, commitment or correction fields: they stay absent, not empty.
      return schema === 1
        ? base
        : {
            ...base,
            task: row.task as string,
            commitment: row.commitment as string,
            correction: row.correction as 0 | 1,
          };
    });
  }

  function recall(request: RecallRequest): RecallResult {
    const recalled = recallGroups(request, request.revision ?? currentContextRevision);
    if (recalled.state === 'refused') return recalled;
    return { state: 'ok', ranked: recalled.ranked, context: recalled.context };
  }

  function recallGroups(
    request: RecallRequest,
    revision: number,
  ):
    | {
        state: 'ok';
        ranked: { sourceId: number; score: number }[];
        groups: ContextGroup[];
        context: RenderedContext;
      }
    | { state: 'refused'; reason: string } {
    if (!(contextRevisions as readonly number[]).includes(revision)) {
      return {
        state: 'refused',
        reason: `context revision ${revision} is unknown; this build renders ${contextRevisions.join(' and ')}`,
      };
    }
    const work = limits();
    const sources = db
      .prepare('SELECT * FROM sources WHERE scope = ? AND available = 1 ORDER BY id DESC')
      .all(request.scope) as SourceRow[];
    const result = db.prepare(
      `SELECT a.*, r.id AS relationship_id, r.task_id AS rel_task, r.regard_gain, r.regard_loss, r.trust_gain, r.trust_loss
       FROM assessments a JOIN relationships r ON r.assessment_id = a.id
       WHERE a.source_id = ? AND a.schema = 2 AND a.status = 'current' AND r.status = 'current'`,
    );
    const candidates = sources.map((source): RecallCandidate => {
      const row = result.get(source.id) as Record<string, number | string | null> | undefined;
      const number = (field: string) => row?.[field] as number | null;
      return {
        source: {
          id: source.id,
          version: source.version,
          actor: source.owner,
          subject: source.subject,
          text: source.text,
          taskId: source.task_id,
        },
        ...(row
          ? {
              appraisal: {
                assessmentId: row.id as number,
                queueId: row.queue_id as number,
                relationshipId: row.relationship_id as number,
                evidence: row.evidence as string,
                consequence: row.consequence as number,
                confidence: number('confidence'),
                benefit: number('benefit'),
                harm: number('harm'),
                arousal: number('arousal'),
                regardGain: number('regard_gain'),
                regardLoss: number('regard_loss'),
                trustGain: number('trust_gain'),
                trustLoss: number('trust_loss'),
                taskId: row.rel_task as string | null,
              },
            }
          : {}),
      };
    });
    const ranked = selectRecall(
      candidates,
      {
        query: request.query,
        ...(request.task === undefined ? {} : { task: request.task }),
        ...(request.participant === undefined ? {} : { participant: request.participant }),
        ...(request.appraisal === undefined ? {} : { appraisal: request.appraisal }),
      },
      {
        recallDefaults: flagSet(flags()).recall,
        floor: work.recallFloor,
        defaultPriority: work.recallPriority,
      },
      wordOverlap,
    );
    const context = renderContext(
      ranked.map((entry) => entry.group),
      request.request ?? request.query,
      revision as ContextRevision,
    );
    // The groups the context holds, in order: what a lease records.
    const held = new Set(context.sources);
    return {
      state: 'ok',
      ranked: ranked.map(({ sourceId, score }) => ({ sourceId, score })),
      groups: ranked.map((entry) => entry.group).filter((group) => held.has(group.source.id)),
      context,
    };
  }

  function shareContext(request: RecallRequest): LeaseResult {
    const revision = request.revision ?? sharedLeaseRevision;
    if (revision !== sharedLeaseRevision) {
      return {
        state: 'refused',
        reason: `new shared leases use revision ${sharedLeaseRevision}, not ${revision}`,
      };
    }
    const recalled = recallGroups(request, revision);
    if (recalled.state === 'refused') return recalled;
    const { groups, context } = recalled;
    const leaseId = db
      .prepare(
        `INSERT INTO shared_leases (revision, policy, owner, scope, request, groups, system, text, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        revision,
        revision,
        request.owner,
        request.scope,
        request.request ?? request.query,
        JSON.stringify(groups),
        context.system,
        context.text,
        now(),
      ).lastInsertRowid as number;
    return { state: 'ok', leaseId, revision, policy: revision, context, reproduced: true };
  }

  function readLease(leaseId: number): LeaseResult {
    const row = db.prepare('SELECT * FROM shared_leases WHERE id = ?').get(leaseId) as
      | {
          revision: number;
          policy: number;
          request: string;
          groups: string;
          system: string;
          text: string;
        }
      | undefined;
    if (!row) return { state: 'refused', reason: `no shared lease #${leaseId}` };
    if (!(contextRevisions as readonly number[]).includes(row.revision)) {
      return {
        state: 'refused',
        reason: `shared lease #${leaseId} has revision ${row.revision}, unknown to this build (it renders ${contextRevisions.join(' and ')})`,
      };
    }
    const revision = row.revision as ContextRevision;
    const groups = JSON.parse(row.groups) as ContextGroup[];
    const again = renderContext(groups, row.request, revision);
    return {
      state: 'ok',
      leaseId,
      revision,
      policy: row.policy,
      // Exactly the recorded bytes, never a new rendering.
      context: { ...again, system: row.system, text: row.text },
      reproduced: again.text === row.text && again.system === row.system,
    };
  }

  function status(): AppraiserStatus {
    const counts = { pending: 0, complete: 0, refused: 0, interrupted: 0 } as Record<
      QueueState,
      number
    >;
    const rows = db
      .prepare(
        `SELECT (SELECT state FROM queue_versions v WHERE v.queue_id = q.id ORDER BY version DESC LIMIT 1) AS state, COUNT(*) AS n
         FROM queue q WHERE q.processor = ? GROUP BY state`,
      )
      .all(currentProcessor) as { state: QueueState; n: number }[];
    for (const row of rows) counts[row.state] = row.n;
    const bound = db
      .prepare('SELECT COUNT(*) AS n FROM queue WHERE processor <> ?')
      .get(currentProcessor) as { n: number };
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      flags: flagSet(flags()),
      policy: policy(),
      imported: imported(),
      hold: {
        held: get('hold') === '1',
        waiting: (() => {
          const waiting = get('hold_waiting');
          return waiting === undefined ? null : (JSON.parse(waiting) as { pid: number }).pid;
        })(),
      },
      worker: lockHolder(workLock)?.pid ?? null,
      configVersion: configVersion(),
      limits: limits(),
      pending: controls('pending'),
      processor: currentProcessor,
      queue: counts,
      boundToPreviousProcessor: bound.n,
      sources: count('SELECT COUNT(*) AS n FROM sources'),
      assessments: {
        current: count("SELECT COUNT(*) AS n FROM assessments WHERE status = 'current'"),
        superseded: count("SELECT COUNT(*) AS n FROM assessments WHERE status = 'superseded'"),
      },
      journal: {
        tornBytes: read.tornBytes,
        unreadableLines: read.unreadableLines,
        recoveredInterrupted: recovered.interrupted,
        recoveredApplied: recovered.applied,
        recoveredRefused: recovered.refused,
        recoveryDeferred,
      },
    };
  }

  return {
    directory,
    retainSource,
    describeTask(taskId, descriptor) {
      if (taskId.trim() === '' || descriptor.trim() === '') {
        throw new AppraiserInputError('A task descriptor needs a task id and non-empty text.');
      }
      db.transaction(() => {
        const last = db
          .prepare('SELECT MAX(version) AS v FROM task_cues WHERE task_id = ?')
          .get(taskId) as { v: number | null };
        db.prepare('UPDATE task_cues SET current = 0 WHERE task_id = ?').run(taskId);
        db.prepare(
          'INSERT INTO task_cues (task_id, version, descriptor, current, recorded_at) VALUES (?, ?, ?, 1, ?)',
        ).run(taskId, (last.v ?? 0) + 1, descriptor, now());
      }).immediate();
    },
    setAppraisal(setting) {
      const value =
        setting === 'on'
          ? flagsForOn(latestFlags())
          : setting === 'off'
            ? flagsForOff()
            : flagsWithBackground(latestFlags(), setting.background);
      return pendingResult(recordControl('flags', value));
    },
    setPolicy(next) {
      return pendingResult(recordControl('policy', next));
    },
    configuration: projectedConfiguration,
    setLimits(partial) {
      const problems = validateAppraisalLimits({ ...projectedConfiguration().limits, ...partial });
      if (problems.length > 0) {
        const id = db
          .prepare(
            "INSERT INTO controls (kind, value, state, reason, requested_at) VALUES ('limits', ?, 'refused', ?, ?)",
          )
          .run(
            JSON.stringify(partial),
            problems.map((problem) => problem.message).join('; '),
            now(),
          ).lastInsertRowid as number;
        return { state: 'refused', id, problems, configuration: projectedConfiguration() };
      }
      return pendingResult(recordControl('limits', partial));
    },
    importConfiguration(previous) {
      const value = previous.flags;
      if (!Number.isInteger(value) || value < 0 || value > 7) {
        throw new AppraiserInputError(
          `An imported configuration's flags are an integer from 0 to 7 (writes=1, recall=2, background=4), got ${value}.`,
        );
      }
      return pendingResult(recordControl('import', value));
    },
    applyPending,
    hold() {
      put('hold', '1');
    },
    release() {
      put('hold', '0');
    },
    status,
    run,
    retry,
    assessments,
    queueState,
    recall,
    shareContext,
    readLease,
    withdrawSource(sourceId) {
      db.prepare('UPDATE sources SET available = 0 WHERE id = ?').run(sourceId);
    },
    close() {
      db.close();
    },
  };
}
