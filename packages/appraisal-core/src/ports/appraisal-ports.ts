import type { CharterLine } from '@mecha/charter';
import type { PopulationOptions } from '../rules/population-options.js';
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
import type { SessionKind, Surface, TranscriptEvent } from '../schemas/transcript.js';
import type { WorkflowRecord } from '../schemas/workflows.js';

/**
 * What a port answers: one source's records with its read state. Every port is asynchronous,
 * because the stores behind them are files; a source that could not be read is a value.
 */
export type PortRead<T> = Promise<SourceRead<T>>;

/**
 * One session as the session store lists it. `kind` and `surface` come from the head of its
 * transcript and are absent when that head could not be read (never guessed as ordinary).
 */
export interface SessionListing {
  readonly sessionId: string;
  /** When the session began (ISO 8601 with an offset); the window is taken over this. */
  readonly startedAt: string;
  readonly kind?: SessionKind;
  /** The surface its first run was started from. */
  readonly surface?: Surface;
}

/**
 * What a single pass over the session store reads, said as data rather than callbacks, so a
 * store can decide it where it reads: the sessions whose transcripts are wanted, and the event
 * types the visitor looks at.
 */
export interface SessionVisitor {
  /**
   * The sessions whose transcripts are wanted, each once: the members of a readout's
   * population, or `every` listed session (a head that could not be read included).
   */
  readonly population: PopulationOptions | 'every';
  /**
   * The event types the visitor reads; all when absent. A port may leave other events out of
   * the transcripts it hands over (see `projectTranscript`), but never a transcript's last
   * event, and it still reads and checks every line, so damage is reported all the same.
   */
  readonly events?: readonly TranscriptEvent['type'][];
  /** How far the pass has got: sessions listed so far, of how many. */
  readonly progress?: (scanned: number, total: number) => void;
  /** Each wanted transcript, in listing order. It is the visitor's to keep or let go. */
  readonly visit: (member: SessionListing, transcript: SourceRead<TranscriptEvent>) => void;
}

/** The session store: which sessions exist, and each one's transcript (all its runs). */
export interface SessionsPort {
  list(): PortRead<SessionListing>;
  transcript(sessionId: string): PortRead<TranscriptEvent>;
  /**
   * Lists every session and hands the visitor the transcripts it wants, in listing order, in
   * one pass: a file-backed store opens each transcript once, for its head and its events
   * alike. Answers the listing, as `list` would. Ports with no cheaper way build it with
   * `scanByListing`.
   */
  scan(visitor: SessionVisitor): PortRead<SessionListing>;
}

/** The outbox log: drafts staged by sessions and what became of them. */
export interface OutboxPort {
  read(): PortRead<OutboxRecord>;
}

/** The parked-question store. */
export interface QuestionsPort {
  read(): PortRead<QuestionRecord>;
}

/** The front door's request store. */
export interface RequestsPort {
  read(): PortRead<RequestRecord>;
}

/** The task-closure record: every closure and reopen. */
export interface ClosuresPort {
  read(): PortRead<ClosureRecord>;
}

/** The workflow store. */
export interface WorkflowsPort {
  read(): PortRead<WorkflowRecord>;
}

/**
 * The owner's board. A response cut short (a row limit, a dropped page) is reported as
 * `partial`, so no reader mistakes a truncated board for a whole one.
 */
export interface BoardPort {
  read(): PortRead<BoardRecord>;
}

/**
 * The owner's charter, lines in rank order (highest first), each as `@mecha/charter` holds it:
 * `{ id, text, sensor?, setpoint? }`. The readouts read ids, sensors and setpoints; the text
 * never leaves the core.
 */
export interface CharterPort {
  lines(): PortRead<CharterLine>;
}

/** What the curation verdicts are about; each target is its own store. */
export type CurationTarget = CurationRecord['target'];

/** The learning stores: reflections, curation verdicts, text appraisals and what hangs off them. */
export interface LearningPort {
  reflections(): PortRead<ReflectionRecord>;
  /** The owner's verdicts on one kind of learner output; each kind is read on its own. */
  curation(target: CurationTarget): PortRead<CurationRecord>;
  textAppraisals(): PortRead<TextAppraisalRecord>;
  counterfactuals(): PortRead<CounterfactualRecord>;
  comparisons(): PortRead<ComparisonRecord>;
  /** Expectation scores distillation recorded; the on-read readouts score afresh instead. */
  scores(): PortRead<ExpectationScoreRecord>;
}

/** Owner outcomes reported after delivery, linked to a draft and its session. */
export interface OwnerOutcomesPort {
  read(): PortRead<OwnerOutcomeRecord>;
}

/** Anticipation's predictions made before sends. */
export interface PredictionsPort {
  read(): PortRead<PredictionRecord>;
}

/**
 * Every source the readouts read, each behind its own port. `@mecha/stores` implements them
 * over files; tests use in-memory ones. Nothing here reads the clock: callers pass `now`.
 */
export interface AppraisalPorts {
  readonly sessions: SessionsPort;
  readonly outbox: OutboxPort;
  readonly questions: QuestionsPort;
  readonly requests: RequestsPort;
  readonly closures: ClosuresPort;
  readonly workflows: WorkflowsPort;
  readonly board: BoardPort;
  readonly charter: CharterPort;
  readonly learning: LearningPort;
  readonly ownerOutcomes: OwnerOutcomesPort;
  readonly predictions: PredictionsPort;
}
