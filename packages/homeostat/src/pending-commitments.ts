import type {
  OutboxRecord,
  QuestionRecord,
  RequestRecord,
  SourceRead,
} from '@mecha/appraisal-core';
import type { CommitmentStore } from '@mecha/charter';

/**
 * One row still pending in one of mecha's own stores: a staged draft with no outcome, a parked
 * question not answered or let go, or a front-door request not closed. `stagedAt` is when it
 * began to wait (ISO 8601); a request parked on its requester carries `needs_info`.
 */
export interface PendingRow {
  readonly store: CommitmentStore;
  readonly id: string;
  readonly stagedAt: string;
  readonly status?: 'needs_info';
}

/** What is pending in each of the three stores, each with its own read state. */
export interface PendingStores {
  readonly outbox: SourceRead<PendingRow>;
  readonly questions: SourceRead<PendingRow>;
  readonly requests: SourceRead<PendingRow>;
}

/** The three stores' records as their ports return them. */
export interface CommitmentSources {
  readonly outbox: SourceRead<OutboxRecord>;
  readonly questions: SourceRead<QuestionRecord>;
  readonly requests: SourceRead<RequestRecord>;
}

function carry<T>(source: SourceRead<T>, rows: (records: readonly T[]) => PendingRow[]) {
  if (source.state === 'unreadable') return source;
  const pending = rows(source.records);
  return source.state === 'partial'
    ? { state: 'partial' as const, records: pending, skipped: source.skipped }
    : { state: 'read' as const, records: pending };
}

function pendingDrafts(records: readonly OutboxRecord[]): PendingRow[] {
  const decided = new Set<string>();
  for (const record of records) if (record.type === 'outcome') decided.add(record.draft_id);
  const rows = new Map<string, PendingRow>();
  for (const record of records) {
    if (record.type !== 'staged' || decided.has(record.draft_id) || rows.has(record.draft_id)) {
      continue;
    }
    rows.set(record.draft_id, { store: 'outbox', id: record.draft_id, stagedAt: record.at });
  }
  return [...rows.values()];
}

function pendingQuestions(records: readonly QuestionRecord[]): PendingRow[] {
  const settled = new Set<string>();
  for (const record of records) if (record.type !== 'parked') settled.add(record.question_id);
  const rows = new Map<string, PendingRow>();
  for (const record of records) {
    if (record.type !== 'parked' || settled.has(record.question_id)) continue;
    if (rows.has(record.question_id)) continue;
    rows.set(record.question_id, {
      store: 'questions',
      id: record.question_id,
      stagedAt: record.at,
    });
  }
  return [...rows.values()];
}

function pendingRequests(records: readonly RequestRecord[]): PendingRow[] {
  const received = new Map<string, string>();
  const closed = new Set<string>();
  const parked = new Map<string, boolean>();
  for (const record of records) {
    if (record.type === 'received') {
      if (!received.has(record.request_id)) received.set(record.request_id, record.at);
    } else if (record.type === 'closed') {
      closed.add(record.request_id);
    } else {
      // The latest status in log order decides: a triage after `needs_info` takes it back.
      parked.set(record.request_id, record.type === 'needs_info');
    }
  }
  const rows: PendingRow[] = [];
  for (const [id, stagedAt] of received) {
    if (closed.has(id)) continue;
    rows.push(
      parked.get(id) === true
        ? { store: 'requests', id, stagedAt, status: 'needs_info' }
        : { store: 'requests', id, stagedAt },
    );
  }
  return rows;
}

/**
 * The rows pending in each store, read from the stores' own records and nothing else — the
 * only place a commitment can come from. A store that could not be read stays unreadable, and
 * one read in part stays partial, so its counts read "at least".
 */
export function pendingCommitments(sources: CommitmentSources): PendingStores {
  return {
    outbox: carry(sources.outbox, pendingDrafts),
    questions: carry(sources.questions, pendingQuestions),
    requests: carry(sources.requests, pendingRequests),
  };
}
