import type { BoardRecord } from '../schemas/board.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import type { SessionStores } from './session-stores.js';

/**
 * Everything recorded about one session, each source with its own read state, scoped to the
 * session: the transcript (all its runs); outbox records of drafts it staged and their
 * outcomes; questions it parked and their answers; requests it triaged and their lifecycle;
 * closures naming it and the reopens of those closures; workflows it started and their
 * lifecycle; reflections and owner outcomes about it.
 */
export interface SessionEvidence extends SessionStores {
  readonly sessionId: string;
  readonly transcript: SourceRead<TranscriptEvent>;
  /** The board, where a reader has it (closure and project appraisal, expectations). */
  readonly board?: SourceRead<BoardRecord>;
}
