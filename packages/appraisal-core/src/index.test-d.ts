import { describe, expectTypeOf, it } from 'vitest';
import {
  type AppraisalPorts,
  appraiseCorpus,
  appraiseRun,
  appraiseSession,
  type BoardPort,
  type Channel,
  type ContributionRowId,
  type Contributions,
  type CorpusAppraisal,
  type CorpusOptions,
  contributions,
  deriveLabel,
  type GoalError,
  type Label,
  type LabelFacts,
  type OutboxPort,
  type OutboxRecord,
  type PortRead,
  type RunAppraisal,
  type SessionAppraisal,
  type SessionEvidence,
  type SessionListing,
  type SessionsPort,
  type SignedEntries,
  type SignedEntry,
  type SourceRead,
  signedEntries,
  type TranscriptEvent,
  type Valence,
  valence,
} from './index.js';

// The main entry points' signatures as a harness author sees them, from the package entry.
// `vitest run` type-checks this file (typecheck.enabled in vitest.config.ts).

describe('the readouts', () => {
  it('appraiseCorpus reads the ports and a population into the corpus readout', () => {
    expectTypeOf(appraiseCorpus).parameters.toEqualTypeOf<[AppraisalPorts, CorpusOptions]>();
    expectTypeOf(appraiseCorpus).returns.toEqualTypeOf<Promise<CorpusAppraisal>>();
    expectTypeOf<CorpusOptions['now']>().toEqualTypeOf<Date>();
  });

  it('appraiseSession takes an id or prefix and answers one of three states', () => {
    expectTypeOf(appraiseSession).parameters.toEqualTypeOf<[AppraisalPorts, string]>();
    expectTypeOf(appraiseSession).returns.toEqualTypeOf<Promise<SessionAppraisal>>();
    expectTypeOf<SessionAppraisal['state']>().toEqualTypeOf<
      'appraised' | 'not_found' | 'ambiguous'
    >();
  });

  it('appraiseRun is synchronous over one run’s events', () => {
    expectTypeOf(appraiseRun).parameters.toEqualTypeOf<[readonly TranscriptEvent[]]>();
    expectTypeOf(appraiseRun).returns.toEqualTypeOf<RunAppraisal>();
    expectTypeOf<RunAppraisal>().toEqualTypeOf<{
      readonly errors: readonly GoalError[];
      readonly entries: readonly SignedEntry[];
      readonly valence: Valence;
      readonly label: Label;
      readonly labelFacts: LabelFacts;
    }>();
  });
});

describe('the rules', () => {
  it('contributions and signedEntries read one session’s evidence', () => {
    expectTypeOf(contributions).parameters.toEqualTypeOf<[SessionEvidence]>();
    expectTypeOf(contributions).returns.toEqualTypeOf<Contributions>();
    expectTypeOf<Contributions['errors']>().toEqualTypeOf<GoalError[]>();
    expectTypeOf<Contributions['incomplete']>().toEqualTypeOf<Channel[]>();
    expectTypeOf(signedEntries).returns.toEqualTypeOf<SignedEntries>();
    expectTypeOf<SignedEntry['error']>().toEqualTypeOf<GoalError>();
    expectTypeOf<SignedEntry['row']>().toExtend<ContributionRowId>();
  });

  it('deriveLabel is a pure function of the errors and the facts', () => {
    expectTypeOf(deriveLabel).parameters.toEqualTypeOf<[readonly GoalError[], LabelFacts]>();
    expectTypeOf(deriveLabel).returns.toEqualTypeOf<Label>();
  });

  it('valence sums both sides, with an optional partial flag', () => {
    expectTypeOf(valence).parameter(0).toEqualTypeOf<readonly GoalError[]>();
    expectTypeOf(valence).returns.toEqualTypeOf<Valence>();
    expectTypeOf<Valence>().toEqualTypeOf<{
      readonly positive: number;
      readonly negative: number;
      readonly partial: boolean;
    }>();
  });
});

describe('the ports', () => {
  it('every read answers a SourceRead, asynchronously', () => {
    expectTypeOf<PortRead<OutboxRecord>>().toEqualTypeOf<Promise<SourceRead<OutboxRecord>>>();
    expectTypeOf<OutboxPort['read']>().returns.toEqualTypeOf<PortRead<OutboxRecord>>();
    expectTypeOf<SessionsPort['list']>().returns.toEqualTypeOf<PortRead<SessionListing>>();
    expectTypeOf<SessionsPort['transcript']>().parameters.toEqualTypeOf<[string]>();
    expectTypeOf<AppraisalPorts['board']>().toEqualTypeOf<BoardPort>();
  });

  it('a SourceRead is read whole, partial with its skipped lines, or unreadable', () => {
    expectTypeOf<SourceRead<OutboxRecord>['state']>().toEqualTypeOf<
      'read' | 'partial' | 'unreadable'
    >();
  });
});
