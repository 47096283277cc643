import type { ClosureRecord } from '../schemas/closures.js';
import type { OwnerOutcomeRecord, ReflectionRecord } from '../schemas/learning.js';
import type { DraftStaged, OutboxRecord } from '../schemas/outbox.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { RequestRecord } from '../schemas/requests.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';
import type { AppraisalPorts } from './appraisal-ports.js';
import type { SessionEvidence } from './session-evidence.js';
import type { SessionStores } from './session-stores.js';

/** Reads every session-scoped store once, all at the same time. */
export async function readSessionStores(ports: AppraisalPorts): Promise<SessionStores> {
  const [outbox, questions, requests, closures, workflows, reflections, ownerOutcomes] =
    await Promise.all([
      ports.outbox.read(),
      ports.questions.read(),
      ports.requests.read(),
      ports.closures.read(),
      ports.workflows.read(),
      ports.learning.reflections(),
      ports.ownerOutcomes.read(),
    ]);
  return { outbox, questions, requests, closures, workflows, reflections, ownerOutcomes };
}

/** The records of a source, or none when it could not be read. */
export function recordsOrNone<T>(source: SourceRead<T>): readonly T[] {
  return source.state === 'unreadable' ? [] : source.records;
}

/** Groups records by session in one pass, keeping store order within each session. */
class Grouping<T> {
  readonly bySession = new Map<string, T[]>();

  add(sessionId: string, record: T): void {
    const list = this.bySession.get(sessionId);
    if (list === undefined) this.bySession.set(sessionId, [record]);
    else if (list[list.length - 1] !== record) list.push(record);
  }

  addAll(sessionIds: Iterable<string>, record: T): void {
    for (const sessionId of sessionIds) this.add(sessionId, record);
  }
}

function scoped<T>(source: SourceRead<T>, records: readonly T[] | undefined): SourceRead<T> {
  switch (source.state) {
    case 'unreadable':
      return source;
    case 'partial':
      // A torn line cannot be placed in a session, so every session of a partial store is partial.
      return { state: 'partial', records: records ?? [], skipped: source.skipped };
    default:
      return { state: 'read', records: records ?? [] };
  }
}

// Most sessions have no records in most stores: they all share one empty read per store
// instead of each allocating its own.
function scoper<T>(
  source: SourceRead<T>,
  grouping: Grouping<T>,
): (sessionId: string) => SourceRead<T> {
  const none = scoped(source, undefined);
  return (sessionId) => {
    const records = grouping.bySession.get(sessionId);
    return records === undefined ? none : scoped(source, records);
  };
}

/**
 * The stores indexed by session once, so that a readout over many sessions builds each
 * session's evidence from maps instead of scanning a store per session.
 */
export interface SessionStoreIndex {
  readonly stores: SessionStores;
  /** Staged drafts by draft id. */
  readonly drafts: ReadonlyMap<string, DraftStaged>;
  /** Closures and reopens by closure id. */
  readonly closuresById: ReadonlyMap<string, ClosureRecord>;
  /** One session's records from every store, each with its store's read state. */
  evidenceFor(sessionId: string, transcript: SourceRead<TranscriptEvent>): SessionEvidence;
}

/** Indexes already built, by the identity of the seven reads they were built from. */
const built = new WeakMap<object, unknown>();

/**
 * Builds the per-session index of the session-scoped stores in one pass over each. The same
 * seven reads (the same objects) give back the index already built from them: a live readout
 * that serves each store's read from memory indexes once per change, not once per request.
 */
export function indexSessionStores(stores: SessionStores): SessionStoreIndex {
  const reads: readonly object[] = [
    stores.outbox,
    stores.questions,
    stores.requests,
    stores.closures,
    stores.workflows,
    stores.reflections,
    stores.ownerOutcomes,
  ];
  let level = built;
  for (const read of reads.slice(0, -1)) {
    let next = level.get(read) as WeakMap<object, unknown> | undefined;
    if (next === undefined) {
      next = new WeakMap();
      level.set(read, next);
    }
    level = next;
  }
  const last = reads[reads.length - 1] as object;
  const found = level.get(last) as SessionStoreIndex | undefined;
  if (found !== undefined) return found;
  const index = buildSessionIndex(stores);
  level.set(last, index);
  return index;
}

function buildSessionIndex(stores: SessionStores): SessionStoreIndex {
  // Outcomes may precede their staging line in a reordered store: find every draft first.
  const drafts = new Map<string, DraftStaged>();
  for (const record of recordsOrNone(stores.outbox)) {
    if (record.type === 'staged') drafts.set(record.draft_id, record);
  }
  const outbox = new Grouping<OutboxRecord>();
  for (const record of recordsOrNone(stores.outbox)) {
    const draft = drafts.get(record.draft_id);
    if (draft !== undefined) outbox.add(draft.session_id, record);
  }

  const questionSession = new Map<string, string>();
  for (const record of recordsOrNone(stores.questions)) {
    if (record.type === 'parked') questionSession.set(record.question_id, record.session_id);
  }
  const questions = new Grouping<QuestionRecord>();
  for (const record of recordsOrNone(stores.questions)) {
    const sessionId = questionSession.get(record.question_id);
    if (sessionId !== undefined) questions.add(sessionId, record);
  }

  const requestSessions = new Map<string, Set<string>>();
  for (const record of recordsOrNone(stores.requests)) {
    if (record.type === 'triaged') {
      const set = requestSessions.get(record.request_id) ?? new Set<string>();
      set.add(record.session_id);
      requestSessions.set(record.request_id, set);
    }
  }
  const requests = new Grouping<RequestRecord>();
  for (const record of recordsOrNone(stores.requests)) {
    requests.addAll(requestSessions.get(record.request_id) ?? [], record);
  }

  const closuresById = new Map<string, ClosureRecord>();
  for (const record of recordsOrNone(stores.closures)) closuresById.set(record.closure_id, record);
  const closures = new Grouping<ClosureRecord>();
  for (const record of recordsOrNone(stores.closures)) {
    const undone = record.reopens === undefined ? undefined : closuresById.get(record.reopens);
    closures.addAll(new Set([...record.session_ids, ...(undone?.session_ids ?? [])]), record);
  }

  const workflowSessions = new Map<string, Set<string>>();
  for (const record of recordsOrNone(stores.workflows)) {
    if (record.type === 'started' || record.type === 'verified') {
      const set = workflowSessions.get(record.workflow_id) ?? new Set<string>();
      set.add(record.session_id);
      workflowSessions.set(record.workflow_id, set);
    }
  }
  const workflows = new Grouping<WorkflowRecord>();
  for (const record of recordsOrNone(stores.workflows)) {
    workflows.addAll(workflowSessions.get(record.workflow_id) ?? [], record);
  }

  const reflections = new Grouping<ReflectionRecord>();
  for (const record of recordsOrNone(stores.reflections))
    reflections.add(record.session_id, record);
  const ownerOutcomes = new Grouping<OwnerOutcomeRecord>();
  for (const record of recordsOrNone(stores.ownerOutcomes)) {
    ownerOutcomes.add(record.session_id, record);
  }

  const scope = {
    outbox: scoper(stores.outbox, outbox),
    questions: scoper(stores.questions, questions),
    requests: scoper(stores.requests, requests),
    closures: scoper(stores.closures, closures),
    workflows: scoper(stores.workflows, workflows),
    reflections: scoper(stores.reflections, reflections),
    ownerOutcomes: scoper(stores.ownerOutcomes, ownerOutcomes),
  };
  return {
    stores,
    drafts,
    closuresById,
    evidenceFor: (sessionId, transcript) => ({
      sessionId,
      transcript,
      outbox: scope.outbox(sessionId),
      questions: scope.questions(sessionId),
      requests: scope.requests(sessionId),
      closures: scope.closures(sessionId),
      workflows: scope.workflows(sessionId),
      reflections: scope.reflections(sessionId),
      ownerOutcomes: scope.ownerOutcomes(sessionId),
    }),
  };
}
