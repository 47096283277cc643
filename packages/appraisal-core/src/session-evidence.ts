import type { BoardRecord } from './schemas/board.js';
import type { ClosureRecord } from './schemas/closures.js';
import type { OwnerOutcomeRecord, ReflectionRecord } from './schemas/learning.js';
import type { OutboxRecord } from './schemas/outbox.js';
import type { QuestionRecord } from './schemas/questions.js';
import type { RequestRecord } from './schemas/requests.js';
import type { SourceRead } from './schemas/source-read.js';
import type { TranscriptEvent } from './schemas/transcript.js';
import type { WorkflowRecord } from './schemas/workflows.js';

/**
 * Everything recorded about one session, each source with its own read state, scoped to the
 * session: the transcript (all its runs); outbox records of drafts it staged and their
 * outcomes; questions it parked and their answers; requests it triaged and their lifecycle;
 * closures naming it and the reopens of those closures; workflows it started and their
 * lifecycle; reflections and owner outcomes about it.
 */
export interface SessionEvidence {
  readonly sessionId: string;
  readonly transcript: SourceRead<TranscriptEvent>;
  readonly outbox: SourceRead<OutboxRecord>;
  readonly questions: SourceRead<QuestionRecord>;
  readonly requests: SourceRead<RequestRecord>;
  readonly closures: SourceRead<ClosureRecord>;
  readonly workflows: SourceRead<WorkflowRecord>;
  readonly reflections: SourceRead<ReflectionRecord>;
  readonly ownerOutcomes: SourceRead<OwnerOutcomeRecord>;
  /** The board, where a reader has it (closure and project appraisal, expectations). */
  readonly board?: SourceRead<BoardRecord>;
}
