import type { CharterLine } from '@mecha/charter';
import type {
  AppraisalPorts,
  CurationTarget,
  PortRead,
  SessionListing,
} from '../ports/appraisal-ports.js';
import { scanByListing } from '../ports/transcript-cache.js';
import type { BoardRecord } from '../schemas/board.js';
import type { ClosureRecord } from '../schemas/closures.js';
import type { ComparisonRecord, CounterfactualRecord } from '../schemas/comparisons.js';
import type { ExpectationScoreRecord } from '../schemas/expectation-scores.js';
import type {
  CurationRecord,
  OwnerOutcomeRecord,
  ReflectionRecord,
  TextAppraisalRecord,
} from '../schemas/learning.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { PredictionRecord } from '../schemas/predictions.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { RequestRecord } from '../schemas/requests.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';

/** A store given to the memory ports: plain records (read whole) or an explicit read state. */
export type MemorySource<T> = readonly T[] | SourceRead<T>;

/** One session held in memory: how the store lists it and its transcript. */
export interface MemorySession {
  readonly listing: SessionListing;
  readonly transcript: MemorySource<TranscriptEvent>;
}

/** Everything the memory ports hold; a store left out reads as empty and whole. */
export interface MemoryStores {
  readonly sessions?: readonly MemorySession[] | { readonly state: 'unreadable'; reason: string };
  readonly outbox?: MemorySource<OutboxRecord>;
  readonly questions?: MemorySource<QuestionRecord>;
  readonly requests?: MemorySource<RequestRecord>;
  readonly closures?: MemorySource<ClosureRecord>;
  readonly workflows?: MemorySource<WorkflowRecord>;
  readonly board?: MemorySource<BoardRecord>;
  readonly charter?: MemorySource<CharterLine>;
  readonly reflections?: MemorySource<ReflectionRecord>;
  readonly curation?: Partial<Record<CurationTarget, MemorySource<CurationRecord>>>;
  readonly textAppraisals?: MemorySource<TextAppraisalRecord>;
  readonly counterfactuals?: MemorySource<CounterfactualRecord>;
  readonly comparisons?: MemorySource<ComparisonRecord>;
  readonly scores?: MemorySource<ExpectationScoreRecord>;
  readonly ownerOutcomes?: MemorySource<OwnerOutcomeRecord>;
  readonly predictions?: MemorySource<PredictionRecord>;
}

/** Memory ports plus a tally of how often each source was read, for the read-once checks. */
export interface MemoryPorts extends AppraisalPorts {
  readonly reads: Map<string, number>;
}

/** The read state an unreadable store reports. */
export function unreadable<T = never>(reason = 'could not be read'): SourceRead<T> {
  return { state: 'unreadable', reason };
}

/** A store whose intact records are `records`, with one torn line skipped. */
export function partial<T>(records: readonly T[]): SourceRead<T> {
  return { state: 'partial', records, skipped: [{ file: 'memory', line: 1, reason: 'torn' }] };
}

function toRead<T>(source: MemorySource<T> | undefined): SourceRead<T> {
  if (source === undefined) return { state: 'read', records: [] };
  if ('state' in source) return source as SourceRead<T>;
  return { state: 'read', records: source as readonly T[] };
}

/** In-memory implementations of every port, over the given stores. */
export function memoryPorts(stores: MemoryStores = {}): MemoryPorts {
  const reads = new Map<string, number>();
  const answer = <T>(name: string, source: MemorySource<T> | undefined): PortRead<T> => {
    reads.set(name, (reads.get(name) ?? 0) + 1);
    return Promise.resolve(toRead(source));
  };
  const sessions = stores.sessions;
  const sessionList = sessions === undefined || 'state' in sessions ? [] : sessions;
  const byId = new Map(sessionList.map((session) => [session.listing.sessionId, session]));
  const listAndRead: Pick<AppraisalPorts['sessions'], 'list' | 'transcript'> = {
    list: () =>
      answer(
        'sessions',
        sessions !== undefined && 'state' in sessions
          ? unreadable<SessionListing>(sessions.reason)
          : sessionList.map((session) => session.listing),
      ),
    transcript: (sessionId) =>
      answer(
        `transcript:${sessionId}`,
        byId.get(sessionId)?.transcript ?? unreadable<TranscriptEvent>('no such session'),
      ),
  };
  return {
    reads,
    sessions: { ...listAndRead, scan: scanByListing(listAndRead) },
    outbox: { read: () => answer('outbox', stores.outbox) },
    questions: { read: () => answer('questions', stores.questions) },
    requests: { read: () => answer('requests', stores.requests) },
    closures: { read: () => answer('closures', stores.closures) },
    workflows: { read: () => answer('workflows', stores.workflows) },
    board: { read: () => answer('board', stores.board) },
    charter: { lines: () => answer('charter', stores.charter) },
    learning: {
      reflections: () => answer('reflections', stores.reflections),
      curation: (target) => answer(`curation:${target}`, stores.curation?.[target]),
      textAppraisals: () => answer('textAppraisals', stores.textAppraisals),
      counterfactuals: () => answer('counterfactuals', stores.counterfactuals),
      comparisons: () => answer('comparisons', stores.comparisons),
      scores: () => answer('scores', stores.scores),
    },
    ownerOutcomes: { read: () => answer('ownerOutcomes', stores.ownerOutcomes) },
    predictions: { read: () => answer('predictions', stores.predictions) },
  };
}
