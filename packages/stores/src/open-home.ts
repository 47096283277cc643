import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type {
  ClosureRecord,
  ComparisonRecord,
  CounterfactualRecord,
  CurationRecord,
  ExpectationScoreRecord,
  OutboxRecord,
  OwnerOutcomeRecord,
  PredictionRecord,
  QuestionRecord,
  ReflectionRecord,
  RequestRecord,
  TextAppraisalRecord,
  WorkflowRecord,
} from '@mecha/appraisal-core';
import {
  comparisonRecordSchema,
  counterfactualRecordSchema,
  expectationScoreRecordSchema,
  ownerOutcomeRecordSchema,
  predictionRecordSchema,
  questionRecordSchema,
  reflectionRecordSchema,
  requestRecordSchema,
  textAppraisalRecordSchema,
  workflowRecordSchema,
} from '@mecha/appraisal-core';
import type { Charter } from '@mecha/charter';
import type * as E from 'fp-ts/lib/Either.js';
import type { z } from 'zod';
import { defaultLockTimeoutMs } from './advisory-lock.js';
import { type BoardStore, boardStore } from './board-store.js';
import {
  type CharterFileEdit,
  type CharterRead,
  editCharterFile,
  readCharterFile,
  writeCharterFile,
} from './charter-file.js';
import { type ConfigIssue, type MechaConfig, readConfig } from './config.js';
import { attachContext } from './home-context.js';
import { homeLayout } from './home-layout.js';
import {
  type AppendStore,
  type HomeContext,
  jsonlStore,
  type ReadableStore,
  readStore,
} from './jsonl-store.js';
import type { RecordValidator } from './record-validator.js';
import type { DistilledRecord } from './schemas/distilled-record.js';
import { type RuleRecord, ruleRecordSchema } from './schemas/rule-record.js';
import { type ShellRegistration, shellRegistrationSchema } from './schemas/shell-registration.js';
import { type SessionStore, sessionsStore } from './sessions-store.js';
import {
  candidateVerdictSchema,
  candidateVerdictsReader,
  closuresReader,
  comparisonsReader,
  counterfactualsReader,
  distilledReader,
  type OutboxRecordInput,
  outboxReader,
  outboxWriter,
  ownerOutcomesReader,
  predictionsReader,
  questionsReader,
  reflectionsReader,
  reflectionVerdictSchema,
  reflectionVerdictsReader,
  requestsReader,
  rulesReader,
  ruleVerdictSchema,
  ruleVerdictsReader,
  scoresReader,
  shellsReader,
  textAppraisalsReader,
  workflowsReader,
} from './store-schemas.js';
import type { WriteFailure } from './write-failure.js';

/** The curation stores, one per kind of learner output. */
export interface CurationStores {
  readonly rule: AppendStore<CurationRecord, z.input<typeof ruleVerdictSchema>>;
  readonly reflection: AppendStore<CurationRecord, z.input<typeof reflectionVerdictSchema>>;
  readonly candidate: AppendStore<CurationRecord, z.input<typeof candidateVerdictSchema>>;
}

/** The learning store (`learning/`): one lock over reflections, rules, verdicts and the ledger. */
export interface LearningStores {
  readonly reflections: AppendStore<ReflectionRecord, z.input<typeof reflectionRecordSchema>>;
  readonly rules: AppendStore<RuleRecord, z.input<typeof ruleRecordSchema>>;
  readonly curation: CurationStores;
  /** The distill ledger; mark sessions through `withDistillLedger`, under the lock. */
  readonly distilled: ReadableStore<DistilledRecord>;
}

/** The appraisal stores (`appraisals/`): text appraisals, expectation scores, counterfactuals, comparisons. */
export interface AppraisalStores {
  readonly textAppraisals: AppendStore<
    TextAppraisalRecord,
    z.input<typeof textAppraisalRecordSchema>
  >;
  readonly scores: AppendStore<
    ExpectationScoreRecord,
    z.input<typeof expectationScoreRecordSchema>
  >;
  readonly counterfactuals: AppendStore<
    CounterfactualRecord,
    z.input<typeof counterfactualRecordSchema>
  >;
  readonly comparisons: AppendStore<ComparisonRecord, z.input<typeof comparisonRecordSchema>>;
}

/**
 * A mecha home opened for reading and writing. Every reader returns its records with a status
 * (read, partial, unreadable) and never throws on damaged data; every writer validates, locks,
 * appends and fsyncs, and returns a failure as a value. Closures are written only through
 * `closeTask` and `reopenTask`.
 */
export interface MechaHome {
  readonly path: string;
  readonly sessions: SessionStore;
  readonly outbox: AppendStore<OutboxRecord, OutboxRecordInput>;
  readonly questions: AppendStore<QuestionRecord, z.input<typeof questionRecordSchema>>;
  readonly requests: AppendStore<RequestRecord, z.input<typeof requestRecordSchema>>;
  readonly closures: ReadableStore<ClosureRecord>;
  readonly workflows: AppendStore<WorkflowRecord, z.input<typeof workflowRecordSchema>>;
  readonly board: BoardStore;
  readonly learning: LearningStores;
  readonly ownerOutcomes: AppendStore<OwnerOutcomeRecord, z.input<typeof ownerOutcomeRecordSchema>>;
  readonly appraisals: AppraisalStores;
  readonly predictions: AppendStore<PredictionRecord, z.input<typeof predictionRecordSchema>>;
  /** The shells runs started (`registerShell`), which presence is read from. */
  readonly shells: AppendStore<ShellRegistration, z.input<typeof shellRegistrationSchema>>;
  /** `config.toml`, typed; defaults when the home has none, every issue when it is wrong. */
  readConfig(): E.Either<readonly ConfigIssue[], MechaConfig>;
  /** `charter.toml`, parsed by `@mecha/charter`. */
  readCharter(): CharterRead;
  /** Writes `charter.toml` atomically: for the owner's editing surfaces only. */
  writeCharter(charter: Charter): Promise<E.Either<WriteFailure, void>>;
  /** Reads, edits and writes `charter.toml` under one hold of its lock: for owner surfaces only. */
  editCharter(
    edit: (charter: Charter) => E.Either<{ readonly message: string }, Charter>,
  ): Promise<CharterFileEdit>;
}

/** How a home handle stamps and waits: lock timeout, the clock, and the id source. */
export interface OpenHomeOptions {
  /** How long a writer waits for a store's lock; 30 seconds by default. */
  readonly lockTimeoutMs?: number;
  /** The time records are stamped with; the system clock by default. */
  readonly clock?: () => Date;
  /** Mints ids such as `close-3f9a…`; random by default. */
  readonly newId?: (prefix: string) => string;
  /**
   * Let the first write make the home's folder when it does not exist. Off by default: a write
   * into a missing home is refused (`no_home`, naming `mecha init`), never an empty home made by
   * accident.
   */
  readonly create?: boolean;
}

function randomId(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/**
 * Opens the mecha home at `path` (see `resolveHome`). Nothing is read or created until a
 * store is used. A home that does not exist reads as such (each store's file is absent); a
 * write into it is refused with `no_home` unless `create: true` was passed.
 */
export function openHome(path: string, options: OpenHomeOptions = {}): MechaHome {
  const context: HomeContext = {
    path: resolve(path),
    listed: new Set(),
    lockTimeoutMs: options.lockTimeoutMs ?? defaultLockTimeoutMs,
    clock: options.clock ?? (() => new Date()),
    newId: options.newId ?? randomId,
    create: options.create === true,
  };
  const store = <R, W>(file: string, reader: RecordValidator<R>, writer: z.ZodType<unknown, W>) =>
    jsonlStore<R, W>(context, { file, reader, writer });
  const readOnly = <R>(file: string, reader: RecordValidator<R>): ReadableStore<R> => ({
    file,
    read: async () => readStore(context, file, reader),
  });
  const home: MechaHome = {
    path: context.path,
    sessions: sessionsStore(context),
    outbox: store(homeLayout.outbox, outboxReader, outboxWriter),
    questions: store(homeLayout.questions, questionsReader, questionRecordSchema),
    requests: store(homeLayout.requests, requestsReader, requestRecordSchema),
    closures: readOnly(homeLayout.closures, closuresReader),
    workflows: store(homeLayout.workflows, workflowsReader, workflowRecordSchema),
    board: boardStore(context),
    learning: {
      reflections: store(homeLayout.reflections, reflectionsReader, reflectionRecordSchema),
      rules: store(homeLayout.rules, rulesReader, ruleRecordSchema),
      curation: {
        rule: store(homeLayout.ruleVerdicts, ruleVerdictsReader, ruleVerdictSchema),
        reflection: store(
          homeLayout.reflectionVerdicts,
          reflectionVerdictsReader,
          reflectionVerdictSchema,
        ),
        candidate: store(
          homeLayout.candidateVerdicts,
          candidateVerdictsReader,
          candidateVerdictSchema,
        ),
      },
      distilled: readOnly(homeLayout.distilled, distilledReader),
    },
    ownerOutcomes: store(homeLayout.ownerOutcomes, ownerOutcomesReader, ownerOutcomeRecordSchema),
    appraisals: {
      textAppraisals: store(
        homeLayout.textAppraisals,
        textAppraisalsReader,
        textAppraisalRecordSchema,
      ),
      scores: store(homeLayout.scores, scoresReader, expectationScoreRecordSchema),
      counterfactuals: store(
        homeLayout.counterfactuals,
        counterfactualsReader,
        counterfactualRecordSchema,
      ),
      comparisons: store(homeLayout.comparisons, comparisonsReader, comparisonRecordSchema),
    },
    predictions: store(homeLayout.predictions, predictionsReader, predictionRecordSchema),
    shells: store(homeLayout.shells, shellsReader, shellRegistrationSchema),
    readConfig: () => readConfig(context.path),
    readCharter: () => readCharterFile(context),
    writeCharter: (charter) => writeCharterFile(context, charter),
    editCharter: (edit) => editCharterFile(context, edit),
  };
  attachContext(home, context);
  return home;
}
