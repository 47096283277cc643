import type { QuestionRecord, SourceRead, TextAppraisalRecord } from '@mecha/appraisal-core';
import type { CompletionGrammar } from '@mecha/local-model';
import type { MechaHome } from '@mecha/stores';
import type { ClassifyOptions } from '../classify-session.js';
import type { DistillBounds } from '../distill-grammar.js';
import type { DistillOptions } from './distill-options.js';
import type { DistillProgress, DistillStop } from './distill-report.js';
import type { Situation } from './earlier-appraisals.js';
import type { GraphAccess } from './graph-access.js';
import type { LedgerSteps } from './ledger-steps.js';
import type { ModelAccess } from './model-access.js';
import type { SessionOutcome } from './session-outcome.js';
import type { Tally } from './tally.js';
import type { WorkContext } from './work-context.js';

/** Why the run stops early, once something says it must; the first reason wins. */
export class StopState {
  stopped: DistillStop | undefined;

  note(stop: DistillStop): void {
    this.stopped ??= stop;
  }
}

/** What every step of one run shares: its settings, its counters and its lazy resources. */
export interface DistillRun {
  readonly options: DistillOptions;
  readonly home: MechaHome;
  readonly clock: () => Date;
  readonly dryRun: boolean;
  readonly bounds: DistillBounds;
  readonly grammar: CompletionGrammar;
  readonly appraisalGrammar: CompletionGrammar;
  /** The grammar the model extracts an episode's candidate facts under. */
  readonly factsGrammar: CompletionGrammar;
  readonly classify: Omit<ClassifyOptions, 'now'>;
  readonly tally: Tally;
  readonly model: ModelAccess;
  readonly graph: GraphAccess;
  readonly ledger: LedgerSteps;
  readonly stop: StopState;
  readonly progress: (
    index: number,
    sessionId: string,
    step: DistillProgress['step'],
    outcome?: SessionOutcome,
  ) => void;
  /** Read when the first session needs it: enough to tell a finished session from a parked one. */
  questions: SourceRead<QuestionRecord> | undefined;
  /** Read when the first session turns out to need distilling. */
  context: WorkContext | undefined;
  /** Each earlier appraised session's situation, once read. */
  readonly situations: Map<string, Situation | undefined>;
  /** Text appraisals this run wrote, so a later session of the run can be shown them. */
  readonly appraisedNow: TextAppraisalRecord[];
}
