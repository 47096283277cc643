import { join } from 'node:path';
import {
  indexSessionStores,
  type QuestionRecord,
  readSession,
  readSessionStores,
  type SessionListing,
  type SessionStoreIndex,
  type SourceRead,
  stripControl,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import type { CharterLine } from '@mecha/charter';
import {
  type CompletionModel,
  type CompletionResult,
  ModelConfigError,
  ModelDisposedError,
  ModelLoadError,
} from '@mecha/local-model';
import {
  type DistilledOutcome,
  type DistillLedger,
  homePorts,
  type McpServerConfig,
  type MechaHome,
  withDistillLedger,
} from '@mecha/stores';
import {
  boundTranscript,
  defaultTranscriptBounds,
  type TranscriptBounds,
} from './bound-transcript.js';
import { buildEpisode, type Episode, episodeSource } from './build-episode.js';
import {
  type ClassifyOptions,
  classifySession,
  defaultClassifyOptions,
} from './classify-session.js';
import { type DistillBounds, defaultDistillBounds, distillGrammar } from './distill-grammar.js';
import { distillPrompt } from './distill-prompt.js';
import { type DistillReply, parseDistillReply } from './distill-reply.js';
import { connectGraph, type GraphConnection } from './graph-client.js';
import { defaultGraphServerName, effectiveCapabilities, findMcpServer } from './graph-server.js';
import { renderTranscript } from './render-transcript.js';
import { type GoalDirectory, goalDirectory } from './resolve-goal.js';
import { isKnownClean, sessionTaint, taintWord } from './session-taint.js';
import {
  type AppraisalBounds,
  appraisalGrammarSchema,
  appraisalPrompt,
  buildTextAppraisal,
  defaultAppraisalBounds,
  parseAppraisalAnswer,
  type TextAppraisal,
} from './text-appraisal.js';

/** What one session came to in a run. Only `pushed`, `skipped` and `too_short` are marked. */
export type SessionOutcome =
  | 'pushed'
  | 'skipped'
  | 'too_short'
  | 'push_failed'
  | 'model_failed'
  | 'unreadable'
  | 'running'
  | 'parked'
  | 'already_distilled'
  | 'not_marked'
  | 'ledger_unavailable'
  | 'would_distill'
  | 'would_mark_too_short';

/** Every outcome, in the order a report lists them. */
export const sessionOutcomes: readonly SessionOutcome[] = [
  'pushed',
  'skipped',
  'too_short',
  'push_failed',
  'model_failed',
  'unreadable',
  'running',
  'parked',
  'already_distilled',
  'not_marked',
  'ledger_unavailable',
  'would_distill',
  'would_mark_too_short',
];

/** One session's line in the report. */
export interface SessionResult {
  readonly sessionId: string;
  readonly outcome: SessionOutcome;
  /** Why, for an outcome that leaves the session to a later run. */
  readonly reason?: string;
  /** What `kg_upsert` said, for a pushed session. */
  readonly graph?: 'inserted' | 'updated' | 'unchanged';
}

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
  readonly step: 'reading' | 'distilling' | 'appraising' | 'pushing' | 'finished';
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
    readonly goalsUnresolved: number;
    /** The appraisal store could not be read, so no appraisal was asked for. */
    readonly storeUnreadable: boolean;
  };
  readonly modelCalls: number;
  readonly graphCalls: number;
  readonly ledgerReads: number;
  readonly sessions: readonly SessionResult[];
  readonly stopped?: DistillStop;
}

/** A run that could not start, and the message that says why. */
export interface DistillRefusal {
  readonly state: 'cannot_run';
  readonly reason: 'config_invalid' | 'no_server' | 'ledger_unreadable' | 'sessions_unreadable';
  readonly message: string;
}

/** What `distill` returns: a report, or why it could not run at all. */
export type DistillResult =
  | { readonly state: 'done'; readonly report: DistillReport }
  | DistillRefusal;

/** A model, or a way to get one when the first session needs it (then disposed at the end). */
export type ModelSource = CompletionModel | (() => CompletionModel | Promise<CompletionModel>);

/** Options of one distillation run. */
export interface DistillOptions {
  readonly home: MechaHome;
  readonly model: ModelSource;
  /** The `[[mcp]]` server holding the graph; `graph` by default. */
  readonly server?: string;
  /** Look at no more than this many sessions, oldest first. */
  readonly limit?: number;
  /** Say what would be distilled: no model call, no server, no writes. */
  readonly dryRun?: boolean;
  /** Ask the follow-up question and keep a text appraisal; on by default. */
  readonly appraise?: boolean;
  /** Ctrl-C: stops between steps and inside a model call; the ledger stays consistent. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: DistillProgress) => void;
  /** The clock for "now"; the system clock by default. */
  readonly clock?: () => Date;
  /** Names the model in `meta.distilled_by`; `sha256:<file digest>` by default. */
  readonly modelName?: string;
  /** Token budget of the distiller call; 2,048 by default. */
  readonly maxTokens?: number;
  /** Token budget of the follow-up call; 2,048 by default. */
  readonly appraisalMaxTokens?: number;
  readonly bounds?: DistillBounds;
  readonly appraisalBounds?: AppraisalBounds;
  readonly transcriptBounds?: TranscriptBounds;
  readonly classify?: Partial<Omit<ClassifyOptions, 'now'>>;
  /** How long one graph call may take; 30 seconds by default. */
  readonly graphTimeoutMs?: number;
}

/** What the sessions that need work share, read once per run and only when there is work. */
interface WorkContext {
  readonly index: SessionStoreIndex;
  readonly charter: SourceRead<CharterLine>;
  readonly directory: GoalDirectory;
  readonly appraised: ReadonlySet<string> | undefined;
}

const excludedKinds = new Set(['test', 'experiment']);

async function loadWorkContext(home: MechaHome): Promise<WorkContext> {
  const ports = homePorts(home);
  const [stores, charter, board, appraisals] = await Promise.all([
    readSessionStores(ports),
    ports.charter.lines(),
    ports.board.read(),
    home.appraisals.textAppraisals.read(),
  ]);
  return {
    index: indexSessionStores(stores),
    charter,
    directory: goalDirectory(charter, board, stores.requests),
    appraised:
      appraisals.state === 'unreadable'
        ? undefined
        : new Set(appraisals.records.map((record) => record.session_id)),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Distills every closed session not yet in the ledger into one episode each, pushed to the
 * knowledge graph through the configured `[[mcp]]` server's `kg_upsert`. One model call per
 * session, no tools, no history, decoded under a grammar. Pushed, skipped and too-short
 * sessions are marked in the ledger under the learning store's lock; every failure is left
 * unmarked for a later run. A run over an unchanged home reads the ledger once and does
 * nothing else.
 */
export async function distill(options: DistillOptions): Promise<DistillResult> {
  const { home } = options;
  const clock = options.clock ?? (() => new Date());
  const serverName = options.server ?? defaultGraphServerName;
  const dryRun = options.dryRun === true;
  const bounds = options.bounds ?? defaultDistillBounds;
  const appraisalBounds = options.appraisalBounds ?? defaultAppraisalBounds;
  const signal = options.signal;

  const config = home.readConfig();
  if (config._tag === 'Left') {
    return {
      state: 'cannot_run',
      reason: 'config_invalid',
      message: `config.toml has problems, so the graph server cannot be found: ${config.left
        .map((issue) => (issue.key === '' ? issue.message : `${issue.key} ${issue.message}`))
        .join('; ')}`,
    };
  }
  const found = findMcpServer(config.right, serverName);
  if (!found.ok) return { state: 'cannot_run', reason: 'no_server', message: found.message };
  const server: McpServerConfig = found.server;

  const [listing, ledgerRead] = await Promise.all([
    home.sessions.list(),
    home.learning.distilled.read(),
  ]);
  if (ledgerRead.state === 'unreadable') {
    return {
      state: 'cannot_run',
      reason: 'ledger_unreadable',
      message: `the distill ledger cannot be read (${ledgerRead.reason}), so nothing can tell which sessions are done; nothing was distilled`,
    };
  }
  if (listing.state === 'unreadable') {
    return {
      state: 'cannot_run',
      reason: 'sessions_unreadable',
      message: `the session store cannot be read: ${listing.reason}`,
    };
  }
  const done = new Set(ledgerRead.records.map((record) => record.session_id));
  let alreadyDistilled = 0;
  let excluded = 0;
  const waiting: SessionListing[] = [];
  for (const entry of listing.records) {
    if (done.has(entry.sessionId)) alreadyDistilled += 1;
    else if (entry.kind !== undefined && excludedKinds.has(entry.kind)) excluded += 1;
    else waiting.push(entry);
  }
  waiting.sort(
    (a, b) =>
      Date.parse(a.startedAt) - Date.parse(b.startedAt) || a.sessionId.localeCompare(b.sessionId),
  );
  const considered =
    options.limit === undefined ? waiting : waiting.slice(0, Math.max(0, options.limit));

  const counts: Record<SessionOutcome, number> = {
    pushed: 0,
    skipped: 0,
    too_short: 0,
    push_failed: 0,
    model_failed: 0,
    unreadable: 0,
    running: 0,
    parked: 0,
    already_distilled: 0,
    not_marked: 0,
    ledger_unavailable: 0,
    would_distill: 0,
    would_mark_too_short: 0,
  };
  const graphCounts = { inserted: 0, updated: 0, unchanged: 0 };
  const corrections = {
    reported: 0,
    sent: 0,
    withheld: 0,
    applied: 0,
    denied: 0,
    toReview: 0,
    duplicate: 0,
  };
  const surpriseItems: PrintedSurprise[] = [];
  const surprises = { reported: 0, sent: 0, withheld: 0, items: surpriseItems };
  const claimsDropped: Record<string, number> = {};
  const appraisals = {
    written: 0,
    onRecord: 0,
    failed: 0,
    claimsKept: 0,
    claimsDropped,
    goalsUnresolved: 0,
    storeUnreadable: false,
  };
  const results: SessionResult[] = [];
  let modelCalls = 0;
  let graphCalls = 0;
  let ledgerReads = 1;
  let stopped: DistillStop | undefined;

  let questions: SourceRead<QuestionRecord> | undefined;
  let context: WorkContext | undefined;
  let model: CompletionModel | undefined;
  let ownsModel = false;
  let distilledBy: string | undefined;
  let graph: GraphConnection | undefined;
  const grammar = { gbnf: distillGrammar(bounds) };
  const appraisalGrammar = { jsonSchema: appraisalGrammarSchema(appraisalBounds) };
  const classifyOptions = { ...defaultClassifyOptions, ...options.classify };

  const progress = (
    index: number,
    sessionId: string,
    step: DistillProgress['step'],
    outcome?: SessionOutcome,
  ) =>
    options.onProgress?.({
      done: step === 'finished' ? index + 1 : index,
      total: considered.length,
      sessionId,
      step,
      ...(outcome === undefined ? {} : { outcome }),
    });

  const getModel = async (): Promise<CompletionModel | DistillStop> => {
    if (model !== undefined) return model;
    try {
      const source = options.model;
      if (typeof source === 'function') {
        model = await source();
        ownsModel = true;
      } else {
        model = source;
      }
      distilledBy = options.modelName ?? `sha256:${(await model.identity()).sha256}`;
      return model;
    } catch (error) {
      return {
        reason: 'model_unavailable',
        message: `the local model cannot be used: ${messageOf(error)}`,
      };
    }
  };

  const complete = async (
    prompt: string,
    request: {
      readonly grammar: typeof grammar | typeof appraisalGrammar;
      readonly maxTokens: number;
    },
  ): Promise<
    { ok: true; result: CompletionResult } | { ok: false; reason: string; stop?: DistillStop }
  > => {
    const ready = await getModel();
    if ('reason' in ready) return { ok: false, reason: ready.message, stop: ready };
    modelCalls += 1;
    try {
      const result = await ready.complete({
        prompt,
        grammar: request.grammar,
        maxTokens: request.maxTokens,
        ...(signal === undefined ? {} : { signal }),
      });
      if (result.stopReason === 'aborted') {
        return {
          ok: false,
          reason: 'aborted',
          stop: { reason: 'aborted', message: 'stopped on request' },
        };
      }
      if (result.stopReason === 'maxTokens') {
        return { ok: false, reason: `the reply ran past ${request.maxTokens} tokens` };
      }
      return { ok: true, result };
    } catch (error) {
      const fatal =
        ModelLoadError.isInstance(error) ||
        ModelDisposedError.isInstance(error) ||
        ModelConfigError.isInstance(error);
      return {
        ok: false,
        reason: messageOf(error),
        ...(fatal
          ? {
              stop: {
                reason: 'model_unavailable' as const,
                message: `the local model cannot be used: ${messageOf(error)}`,
              },
            }
          : {}),
      };
    }
  };

  const ensureGraph = async (): Promise<GraphConnection | string> => {
    if (graph !== undefined) return graph;
    const connected = await connectGraph(server, {
      ...(options.graphTimeoutMs === undefined ? {} : { timeoutMs: options.graphTimeoutMs }),
    });
    if (!connected.ok) return connected.reason;
    graph = connected.connection;
    return graph;
  };

  /** Runs `work` under the ledger's lock, after checking nobody marked the session meanwhile. */
  const underLedger = async (
    sessionId: string,
    work: (ledger: DistillLedger) => Promise<SessionResult>,
  ): Promise<SessionResult> => {
    ledgerReads += 1;
    const held = await withDistillLedger(home, async (ledger) => {
      const marked = ledger.isDistilled(sessionId);
      if (marked === undefined) {
        return {
          sessionId,
          outcome: 'ledger_unavailable' as const,
          reason: 'the ledger could not be read',
        };
      }
      if (marked) return { sessionId, outcome: 'already_distilled' as const };
      return work(ledger);
    });
    return held._tag === 'Left'
      ? { sessionId, outcome: 'ledger_unavailable', reason: held.left.message }
      : held.right;
  };

  const mark = async (
    ledger: DistillLedger,
    sessionId: string,
    outcome: DistilledOutcome,
    result: SessionResult,
  ): Promise<SessionResult> => {
    const written = await ledger.mark(sessionId, outcome);
    return written._tag === 'Left'
      ? {
          sessionId,
          outcome: 'not_marked',
          reason: `${outcome}, but the ledger mark failed: ${written.left.message}`,
        }
      : result;
  };

  const noteGraphLoss = (reason: string) => {
    stopped ??= { reason: 'graph_unavailable', message: reason };
  };

  const distillOne = async (entry: SessionListing, index: number): Promise<SessionResult> => {
    const { sessionId } = entry;
    progress(index, sessionId, 'reading');
    const transcript = await home.sessions.transcript(sessionId);
    if (transcript.state === 'unreadable') {
      return { sessionId, outcome: 'unreadable', reason: transcript.reason };
    }
    // Only the question store is needed to tell a finished session from a parked one; the
    // other stores are read once the first session turns out to need distilling.
    questions ??= await home.questions.read();
    const events: readonly TranscriptEvent[] = transcript.records;
    const now = clock();
    const standing = classifySession(sessionId, events, questions, {
      ...classifyOptions,
      now,
    });
    if (standing.state === 'running' || standing.state === 'parked') {
      return { sessionId, outcome: standing.state };
    }
    if (standing.state === 'too_short') {
      if (dryRun) return { sessionId, outcome: 'would_mark_too_short' };
      return underLedger(sessionId, (ledger) =>
        mark(ledger, sessionId, 'too_short', { sessionId, outcome: 'too_short' }),
      );
    }
    if (dryRun) return { sessionId, outcome: 'would_distill' };
    context ??= await loadWorkContext(home);
    const work = context;

    const taint = sessionTaint(transcript);
    const clean = isKnownClean(taint);
    const bounded = boundTranscript(
      renderTranscript(events),
      options.transcriptBounds ?? defaultTranscriptBounds,
    );
    const prompt = distillPrompt({
      sessionId,
      startedAt: entry.startedAt,
      endedAt: standing.endedAt,
      transcript: bounded.text,
    });
    progress(index, sessionId, 'distilling');
    const completion = await complete(prompt, { grammar, maxTokens: options.maxTokens ?? 2_048 });
    if (!completion.ok) {
      if (completion.stop !== undefined) stopped ??= completion.stop;
      return { sessionId, outcome: 'model_failed', reason: completion.reason };
    }
    const parsed = parseDistillReply(completion.result.text, bounds);
    if (!parsed.ok) return { sessionId, outcome: 'model_failed', reason: parsed.reason };
    const reply: DistillReply = parsed.reply;

    corrections.reported += reply.corrections.length;
    surprises.reported += reply.surprises.length;
    // Counted once the outcome is known: what reaches the graph is decided by the taint and by
    // whether the push landed. A session left for a later run is counted by that run instead,
    // but its surprises are printed now all the same.
    const settle = (result: SessionResult): SessionResult => {
      const landed = result.outcome === 'pushed' || result.outcome === 'not_marked';
      const finished = landed || result.outcome === 'skipped';
      if (finished) {
        if (clean) corrections.sent += reply.corrections.length;
        else corrections.withheld += reply.corrections.length;
        if (clean && landed) surprises.sent += reply.surprises.length;
        else surprises.withheld += reply.surprises.length;
      }
      for (const surprise of reply.surprises) {
        surprises.items.push({
          sessionId,
          about: stripControl(surprise.about),
          graphSaid: stripControl(surprise.graph_said),
          found: stripControl(surprise.found),
          sentToGraph: clean && landed,
        });
      }
      return result;
    };

    if (reply.skip) {
      const result = await underLedger(sessionId, async (ledger) => {
        if (clean && reply.corrections.length > 0) {
          progress(index, sessionId, 'pushing');
          const connected = await ensureGraph();
          if (typeof connected === 'string') {
            noteGraphLoss(connected);
            return { sessionId, outcome: 'push_failed', reason: connected };
          }
          graphCalls += 1;
          const answered = await connected.correct({
            source: episodeSource,
            source_id: sessionId,
            occurred_at: standing.endedAt,
            corrections: reply.corrections,
          });
          if (!answered.ok) {
            if (answered.connectionLost) noteGraphLoss(answered.reason);
            return { sessionId, outcome: 'push_failed', reason: answered.reason };
          }
          corrections.applied += answered.value.applied;
          corrections.denied += answered.value.denied;
          corrections.toReview += answered.value.to_review;
          corrections.duplicate += answered.value.duplicate;
        }
        return mark(ledger, sessionId, 'skipped', { sessionId, outcome: 'skipped' });
      });
      return settle(result);
    }

    let textAppraisal: TextAppraisal | undefined;
    if (options.appraise !== false) {
      if (work.appraised === undefined) {
        appraisals.storeUnreadable = true;
      } else if (work.appraised.has(sessionId)) {
        appraisals.onRecord += 1;
      } else {
        progress(index, sessionId, 'appraising');
        const asked = await complete(appraisalPrompt(prompt, completion.result.text), {
          grammar: appraisalGrammar,
          maxTokens: options.appraisalMaxTokens ?? 2_048,
        });
        if (!asked.ok) {
          if (asked.stop !== undefined) {
            stopped ??= asked.stop;
            if (asked.stop.reason === 'aborted') {
              return { sessionId, outcome: 'model_failed', reason: 'stopped before the push' };
            }
          }
          appraisals.failed += 1;
        } else {
          const answer = parseAppraisalAnswer(asked.result.text);
          if (answer.ok) {
            textAppraisal = buildTextAppraisal(answer.answer, {
              sessionId,
              at: clock().toISOString(),
              taint: taintWord(taint),
              events,
              directory: work.directory,
            });
          } else {
            appraisals.failed += 1;
          }
        }
      }
    }

    const hasOutcome = events.some((event) => event.type === 'run_end');
    const reading = hasOutcome
      ? readSession(work.index.evidenceFor(sessionId, transcript), work.charter)
      : undefined;
    const firstStart = events.find((event) => event.type === 'run_start');
    const episode: Episode = buildEpisode({
      sessionId,
      sourceRef: join(home.path, home.sessions.file(sessionId)),
      occurredAt: standing.endedAt,
      body: reply.episode,
      taint,
      distilledBy: distilledBy ?? 'unknown',
      ...(reading === undefined
        ? {}
        : { appraisal: { label: reading.label, errors: reading.errors } }),
      ...(firstStart?.type === 'run_start' && firstStart.goal !== undefined
        ? { goal: firstStart.goal }
        : {}),
      directory: work.directory,
      corrections: reply.corrections,
      surprises: reply.surprises,
    });

    const result = await underLedger(sessionId, async (ledger) => {
      if (textAppraisal !== undefined) {
        const stored = await home.appraisals.textAppraisals.append([textAppraisal.record]);
        if (stored._tag === 'Left') {
          appraisals.failed += 1;
        } else {
          appraisals.written += 1;
          appraisals.claimsKept += textAppraisal.claims.kept.length;
          for (const [reason, count] of Object.entries(textAppraisal.claims.dropped)) {
            appraisals.claimsDropped[reason] = (appraisals.claimsDropped[reason] ?? 0) + count;
          }
          if (textAppraisal.goalUnresolved) appraisals.goalsUnresolved += 1;
        }
      }
      progress(index, sessionId, 'pushing');
      const connected = await ensureGraph();
      if (typeof connected === 'string') {
        noteGraphLoss(connected);
        return { sessionId, outcome: 'push_failed', reason: connected };
      }
      graphCalls += 1;
      const pushed = await connected.upsert(episode);
      if (!pushed.ok) {
        if (pushed.connectionLost) noteGraphLoss(pushed.reason);
        return { sessionId, outcome: 'push_failed', reason: pushed.reason };
      }
      graphCounts[pushed.value.outcome] += 1;
      const landed = pushed.value.corrections;
      if (landed !== null) {
        corrections.applied += landed.applied;
        corrections.denied += landed.denied;
        corrections.toReview += landed.to_review;
        corrections.duplicate += landed.duplicate;
      }
      return mark(ledger, sessionId, 'pushed', {
        sessionId,
        outcome: 'pushed',
        graph: pushed.value.outcome,
      });
    });
    return settle(result);
  };

  try {
    for (const [index, entry] of considered.entries()) {
      if (signal?.aborted === true)
        stopped ??= { reason: 'aborted', message: 'stopped on request' };
      if (stopped !== undefined) break;
      const result = await distillOne(entry, index);
      results.push(result);
      counts[result.outcome] += 1;
      progress(index, entry.sessionId, 'finished', result.outcome);
    }
  } finally {
    await graph?.close();
    if (ownsModel) await model?.dispose();
  }

  const ledgerPartial = ledgerRead.state === 'partial' || listing.state === 'partial';
  return {
    state: 'done',
    report: {
      server: serverName,
      readBackUntrusted: effectiveCapabilities(server).untrusted_input,
      dryRun,
      listed: listing.records.length,
      alreadyDistilled,
      excluded,
      considered: considered.length,
      partialStores: ledgerPartial,
      counts,
      graph: graphCounts,
      corrections,
      surprises,
      appraisals,
      modelCalls,
      graphCalls,
      ledgerReads,
      sessions: results,
      ...(stopped === undefined ? {} : { stopped }),
    },
  };
}
