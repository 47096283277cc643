import type {
  CompletionResult,
  DevicePriority,
  DeviceScheduler,
  ScheduledResult,
} from '@mecha/local-model';
import type { AppraisalLimits } from './appraisal-limits.js';
import type { AppraiserCore } from './appraiser-core.js';
import type { QueueRow, RunItem, SourceRow } from './appraiser-types.js';
import { correctionCandidates, publish } from './assessments.js';
import { buildInterpretationGrammar } from './interpretation-grammar.js';
import { utf8Bytes } from './json-text.js';
import { parseInterpretation } from './parse-interpretation.js';
import { parseQuotes } from './parse-quotes.js';
import {
  type CorrectionCandidate,
  interpretPrompt,
  type PromptSource,
  promptBytes,
  quotePrompt,
} from './prompts.js';
import { addQueueVersion, sourceRow } from './queue.js';
import { buildQuoteGrammar } from './quote-grammar.js';
import { finish, interpretationCheck } from './work-journal.js';

// One queue object's work: two grammar-constrained calls, each journalled before the work goes
// on, then the answer re-checked and published.

/** What one run shares with the work of each of its queue objects. */
export interface WorkRun {
  readonly scheduler: DeviceScheduler;
  readonly priority: DevicePriority;
  readonly signal: AbortSignal;
  readonly counter: { calls: number };
  /** Looks at the store for a new control (cheap enough for every token). */
  readonly watch: () => void;
  /** The tick gate before each model call: false when the call must not start. */
  readonly tick: (queueId: number) => Promise<boolean>;
}

/** One queue object's work in progress. */
interface Piece {
  readonly core: AppraiserCore;
  readonly run: WorkRun;
  readonly queue: QueueRow;
  readonly source: SourceRow;
  readonly promptSource: PromptSource;
  readonly work: AppraisalLimits;
  readonly item: (state: RunItem['state'], reason?: string, assessmentId?: number) => RunItem;
}

const cancelledReason = (core: AppraiserCore) =>
  core.running.activeReason === 'control' ? 'cancelled: a new control is pending' : 'cancelled';

/** Why a call's answer cannot be used, or undefined when it ended at the grammar's end. */
function unusable(
  core: AppraiserCore,
  result: CompletionResult,
  limit: number,
): { state: 'refused' | 'interrupted'; reason: string } | undefined {
  if (result.stopReason === 'aborted') {
    const preempted = (result as ScheduledResult).preempted === true;
    return {
      state: 'interrupted',
      reason: preempted ? 'foreground work needed the device' : cancelledReason(core),
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

/** Ends the piece when a call's answer cannot be used; undefined when it can. */
function endIfUnusable(piece: Piece, phase: 1 | 2, result: CompletionResult): RunItem | undefined {
  const bad = unusable(piece.core, result, piece.work.outputBytesPerCall);
  if (!bad) return undefined;
  finish(piece.core, piece.queue.id, bad.state, `call ${phase}: ${bad.reason}`);
  return piece.item(bad.state, `call ${phase}: ${bad.reason}`);
}

/** Call 1: the quotes. Answers them, or the run item that ends the piece. */
async function quoteCall(
  piece: Piece,
  model: string,
): Promise<{ quotes: readonly string[] } | { end: RunItem } | undefined> {
  const { core, run, queue, source, work } = piece;
  const first = quotePrompt(piece.promptSource);
  if (promptBytes(first) > work.promptBytes) {
    const reason = `the prompt needs ${promptBytes(first)} bytes, over the ${work.promptBytes}-byte limit`;
    core.db.transaction(() => addQueueVersion(core, queue.id, 'refused', reason)).immediate();
    return { end: piece.item('refused', reason) };
  }
  // Nothing has begun: a cancellation here leaves the source pending.
  if (!(await run.tick(queue.id))) return undefined;
  core.journal.append({
    kind: 'begin',
    queue: queue.id,
    source: source.id,
    processor: queue.processor,
    model,
  });
  run.counter.calls += 1;
  const one = await run.scheduler.complete(
    {
      prompt: first,
      grammar: { gbnf: buildQuoteGrammar(source.text) },
      maxTokens: work.outputTokens,
      signal: run.signal,
      onToken: run.watch,
    },
    run.priority,
  );
  core.journal.append({
    kind: 'response',
    queue: queue.id,
    processor: queue.processor,
    phase: 1,
    text: one.text,
    bytes: utf8Bytes(one.text),
    stopReason: one.stopReason,
  });
  const bad = endIfUnusable(piece, 1, one);
  if (bad) return { end: bad };
  const quotes = parseQuotes(one.text, source.text);
  if (quotes.state === 'unreadable') {
    finish(core, queue.id, 'refused', quotes.reason);
    return { end: piece.item('refused', quotes.reason) };
  }
  return { quotes: quotes.value };
}

/** Call 2: the interpretation, re-checked and published. */
async function interpretCall(
  piece: Piece,
  model: string,
  quotes: readonly string[],
  candidates: readonly CorrectionCandidate[],
): Promise<RunItem> {
  const { core, run, queue, source, work } = piece;
  const second = interpretPrompt(piece.promptSource, quotes, candidates);
  if (promptBytes(second) > work.promptBytes) {
    const reason = `call 2's prompt needs ${promptBytes(second)} bytes, over the ${work.promptBytes}-byte limit`;
    finish(core, queue.id, 'refused', reason);
    return piece.item('refused', reason);
  }
  const descriptor = queue.task_descriptor ?? undefined;
  if (!(await run.tick(queue.id))) {
    const reason = `call 2: ${cancelledReason(core)}`;
    finish(core, queue.id, 'interrupted', reason);
    return piece.item('interrupted', reason);
  }
  run.counter.calls += 1;
  const grammar = buildInterpretationGrammar({
    quotes,
    correctionAllowed: candidates.length > 0,
    ...(descriptor !== undefined &&
    source.task_id !== null &&
    source.text.split(descriptor).length === 2
      ? { taskDescriptor: descriptor }
      : {}),
  });
  const two = await run.scheduler.complete(
    {
      prompt: second,
      grammar: { gbnf: grammar },
      maxTokens: work.outputTokens,
      signal: run.signal,
      onToken: run.watch,
    },
    run.priority,
  );
  core.journal.append({
    kind: 'response',
    queue: queue.id,
    processor: queue.processor,
    phase: 2,
    text: two.text,
    bytes: utf8Bytes(two.text),
    stopReason: two.stopReason,
    quotes,
  });
  const bad = endIfUnusable(piece, 2, two);
  if (bad) return bad;
  const parsed = parseInterpretation(
    two.text,
    interpretationCheck(source, queue, quotes, candidates.length),
  );
  if (parsed.state === 'unreadable') {
    finish(core, queue.id, 'refused', parsed.reason);
    return piece.item('refused', parsed.reason);
  }
  const assessmentId = publish(core, queue, source, quotes, parsed.value, model, candidates);
  core.journal.append({ kind: 'end', queue: queue.id, outcome: 'complete' });
  return piece.item('complete', undefined, assessmentId);
}

/**
 * Appraises one queue object: its outcome, or undefined when the run was cancelled before its
 * first call began (the object stays pending).
 */
export async function processOne(
  core: AppraiserCore,
  run: WorkRun,
  queue: QueueRow,
): Promise<RunItem | undefined> {
  const source = sourceRow(core, queue.source_id) as SourceRow;
  const work = core.settings.limits();
  const model = (await run.scheduler.at(run.priority).identity()).sha256;
  const piece: Piece = {
    core,
    run,
    queue,
    source,
    work,
    promptSource: {
      text: source.text,
      owner: source.owner,
      subject: source.subject as string,
      ...(source.task_id === null ? {} : { taskId: source.task_id }),
      ...(queue.task_descriptor === null ? {} : { taskDescriptor: queue.task_descriptor }),
    },
    item: (state, reason, assessmentId) => ({
      queueId: queue.id,
      sourceId: source.id,
      state,
      ...(reason === undefined ? {} : { reason }),
      ...(assessmentId === undefined ? {} : { assessmentId }),
    }),
  };
  const first = await quoteCall(piece, model);
  if (first === undefined) return undefined;
  if ('end' in first) return first.end;
  const candidates = correctionCandidates(core, source);
  return interpretCall(piece, model, first.quotes, candidates);
}
