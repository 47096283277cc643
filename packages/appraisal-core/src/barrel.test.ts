import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '@mecha/vitest-config/browser-bundle';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the built @mecha/appraisal-core', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'actorSchema',
      'agencySchema',
      'boardProjectSchema',
      'boardRecordSchema',
      'boardTaskSchema',
      'channelSchema',
      'citeSchema',
      'closureRecordSchema',
      'compactionEventSchema',
      'controllableSchema',
      'counterEventSchema',
      'curationRecordSchema',
      'draftOutcomeSchema',
      'draftStagedSchema',
      'expectedActSchema',
      'formatValence',
      'goalErrorSchema',
      'goalRefSchema',
      'idSchema',
      'interventionEventSchema',
      'isComplete',
      'labelSchema',
      'messageEventSchema',
      'nameSchema',
      'outboxRecordSchema',
      'ownerOutcomeRecordSchema',
      'questionRecordSchema',
      'recordsOf',
      'reflectionRecordSchema',
      'requestRecordSchema',
      'runEndEventSchema',
      'runStartEventSchema',
      'sessionKindSchema',
      'stepCheckEventSchema',
      'stopCauseSchema',
      'surfaceSchema',
      'taintSchema',
      'taskStatusSchema',
      'textAppraisalRecordSchema',
      'timestampSchema',
      'toolCallEventSchema',
      'toolResultEventSchema',
      'transcriptEventSchema',
      'workflowRecordSchema',
    ]);
  });

  it('bundles for a browser with no Node module', async () => {
    const result = await bundleForBrowser(entry);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
