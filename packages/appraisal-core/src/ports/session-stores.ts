import type { ClosureRecord } from '../schemas/closures.js';
import type { OwnerOutcomeRecord, ReflectionRecord } from '../schemas/learning.js';
import type { OutboxRecord } from '../schemas/outbox.js';
import type { QuestionRecord } from '../schemas/questions.js';
import type { RequestRecord } from '../schemas/requests.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { WorkflowRecord } from '../schemas/workflows.js';

/** The session-scoped stores as read once for one readout. */
export interface SessionStores {
  readonly outbox: SourceRead<OutboxRecord>;
  readonly questions: SourceRead<QuestionRecord>;
  readonly requests: SourceRead<RequestRecord>;
  readonly closures: SourceRead<ClosureRecord>;
  readonly workflows: SourceRead<WorkflowRecord>;
  readonly reflections: SourceRead<ReflectionRecord>;
  readonly ownerOutcomes: SourceRead<OwnerOutcomeRecord>;
}
