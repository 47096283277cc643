import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '@mecha/vitest-config/browser-bundle';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built @mecha/appraisal-core', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'appraisalChip',
      'appraiseClosure',
      'appraiseCorpus',
      'appraiseProject',
      'appraiseRun',
      'appraiseSession',
      'boardRecordSchema',
      'closureLine',
      'closureRecordSchema',
      'compactionEventSchema',
      'comparisonRecordSchema',
      'conditionsSnapshotSchema',
      'contributionTable',
      'contributions',
      'corpusAppraisalSchema',
      'counterEventSchema',
      'counterfactualRecordSchema',
      'curationRecordSchema',
      'currentTranscriptEventSchemas',
      'deriveLabel',
      'draftOutcomeSchema',
      'draftStagedSchema',
      'examplesFor',
      'expectationScoreRecordSchema',
      'expectedActSchema',
      'formatValence',
      'goalRefSchema',
      'health',
      'idSchema',
      'indexSessionStores',
      'interventionEventSchema',
      'kindsOnRecord',
      'labelFactsFor',
      'labelRules',
      'labelSchema',
      'listSessions',
      'messageEventSchema',
      'outboxRecordSchema',
      'ownerOutcomeRecordSchema',
      'predictionRecordSchema',
      'projectTranscript',
      'questionRecordSchema',
      'reachability',
      'reachabilityLine',
      'readSession',
      'readSessionStores',
      'recordSchemas',
      'recordsOf',
      'reflectionRecordSchema',
      'requestRecordSchema',
      'runEndEventSchema',
      'runStartEventSchema',
      'scanByListing',
      'scoreExpectation',
      'selectPopulation',
      'signedEntries',
      'situationBriefSchema',
      'stepCheckEventSchema',
      'stripControl',
      'stripControlDeep',
      'successes',
      'taskStatusSchema',
      'textAppraisalRecordSchema',
      'timestampSchema',
      'toolCallEventSchema',
      'toolResultEventSchema',
      'transcriptEventSchema',
      'valence',
      'wantedBy',
      'workflowRecordSchema',
    ]);
  });

  it('bundles for a browser with no Node module', async () => {
    const result = await bundleForBrowser(entry);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
