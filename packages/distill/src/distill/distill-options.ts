import type { CompletionModel } from '@mecha/local-model';
import type { McpServerConfig, MechaHome } from '@mecha/stores';
import type { TranscriptBounds } from '../bound-transcript.js';
import type { ClassifyOptions } from '../classify-session.js';
import type { DistillBounds } from '../distill-grammar.js';
import type { FactBounds } from '../extract-facts.js';
import type { GraphEnvironment } from '../graph-transport.js';
import type { AppraisalBounds } from '../text-appraisal.js';
import type { DistillProgress } from './distill-report.js';

/** A model, or a way to get one when the first session needs it (then disposed at the end). */
export type ModelSource = CompletionModel | (() => CompletionModel | Promise<CompletionModel>);

/** Options of one distillation run. */
export interface DistillOptions {
  readonly home: MechaHome;
  readonly model: ModelSource;
  /** The `[[mcp]]` server holding the graph; `graph` by default. */
  readonly server?: string;
  /**
   * How the configured command server is started: the CLI runs the bare `mecha-graph-mcp` as the
   * script installed beside it. The entry as configured by default.
   */
  readonly resolveServer?: (server: McpServerConfig) => McpServerConfig;
  /** Look at no more than this many sessions, oldest first. */
  readonly limit?: number;
  /** Say what would be distilled: no model call, no server, no writes. */
  readonly dryRun?: boolean;
  /** Ask the follow-up question and keep a text appraisal; on by default. */
  readonly appraise?: boolean;
  /**
   * Ask the model for each pushed episode's candidate facts (entities and relations, grounded in
   * the episode's words) under a grammar, and send them as `meta.entities`/`meta.relations`;
   * on by default. Off, or when extraction fails, the graph's own deterministic extractor reads
   * the prose alone. Either way the facts only wait in the review queue.
   */
  readonly extractFacts?: boolean;
  /** Check the text appraisals' predictions into `appraisals/scores.jsonl` after; on by default. */
  readonly score?: boolean;
  /** Only these sessions (a session_end hook names the one that closed). */
  readonly sessions?: readonly string[];
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
  /** Token budget of the fact extraction call; 1,024 by default. */
  readonly factsMaxTokens?: number;
  readonly factBounds?: FactBounds;
  readonly transcriptBounds?: TranscriptBounds;
  readonly classify?: Partial<Omit<ClassifyOptions, 'now'>>;
  /**
   * Tries a session gets when its failure repeats on every try (prompt too long for the model's
   * context, reply over its token budget, a reply that does not parse); then it is given up and
   * marked, and no later run calls the model for it. 3 by default.
   */
  readonly maxAttempts?: number;
  /** How long one graph call may take; 30 seconds by default. */
  readonly graphTimeoutMs?: number;
  /** Where a url graph server's token variable is read; `process.env` by default. */
  readonly env?: GraphEnvironment;
}
