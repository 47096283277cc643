import type {
  AppraisalPorts,
  CurationTarget,
  SessionListing,
  SourceRead,
  TranscriptEvent,
} from '@mecha/appraisal-core';
import { scanByListing } from '@mecha/appraisal-core';
import type { LiveStoreKey } from './home-files.js';

/** How a live readout serves its ports: the sessions it holds and each store as last read. */
export interface MemorySources {
  readonly list: () => Promise<SourceRead<SessionListing>>;
  readonly transcript: (sessionId: string) => Promise<SourceRead<TranscriptEvent>>;
  /** The store under `key` as last read, reading it with `read` when it is not held. */
  readonly store: (
    key: LiveStoreKey,
    read: () => Promise<SourceRead<unknown>>,
  ) => Promise<SourceRead<unknown>>;
}

/** The core's ports over a live readout's memory; what it does not hold is read from `base`. */
export function memoryPorts(base: AppraisalPorts, sources: MemorySources): AppraisalPorts {
  const store = <T>(key: LiveStoreKey, read: () => Promise<SourceRead<T>>) =>
    sources.store(key, read as () => Promise<SourceRead<unknown>>) as Promise<SourceRead<T>>;
  const { list, transcript } = sources;
  const curation = (target: CurationTarget) =>
    store(`curation:${target}`, () => base.learning.curation(target));
  return {
    sessions: { list, transcript, scan: scanByListing({ list, transcript }) },
    outbox: { read: () => store('outbox', () => base.outbox.read()) },
    questions: { read: () => store('questions', () => base.questions.read()) },
    requests: { read: () => store('requests', () => base.requests.read()) },
    closures: { read: () => store('closures', () => base.closures.read()) },
    workflows: { read: () => store('workflows', () => base.workflows.read()) },
    board: { read: () => store('board', () => base.board.read()) },
    charter: { lines: () => store('charter', () => base.charter.lines()) },
    learning: {
      reflections: () => store('reflections', () => base.learning.reflections()),
      curation,
      textAppraisals: () => store('textAppraisals', () => base.learning.textAppraisals()),
      counterfactuals: () => store('counterfactuals', () => base.learning.counterfactuals()),
      comparisons: () => store('comparisons', () => base.learning.comparisons()),
      scores: () => store('scores', () => base.learning.scores()),
    },
    ownerOutcomes: { read: () => store('ownerOutcomes', () => base.ownerOutcomes.read()) },
    predictions: { read: () => store('predictions', () => base.predictions.read()) },
  };
}
