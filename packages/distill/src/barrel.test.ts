import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;

describe('the built @mecha/distill', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'actOnGraph',
      'boundTranscript',
      'connectGraph',
      'defaultAppraisalBounds',
      'defaultClassifyOptions',
      'defaultDistillBounds',
      'defaultFactBounds',
      'defaultGraphServer',
      'distill',
      'distillGrammar',
      'distillOnSessionEnd',
      'dropLesson',
      'editLesson',
      'effectiveCapabilities',
      'emptyReviewQueueHint',
      'episodeSource',
      'factsGrammarSchema',
      'formatDistillReport',
      'formatReflectReport',
      'groundFacts',
      'lessonsOnRecord',
      'mcpServerToml',
      'nightly',
      'nightlyLockFile',
      'openGraphOwner',
      'parseDistillReply',
      'reflect',
      'reflectLockFile',
      'scorePredictions',
      'sessionTaint',
      'writeDefaultGraphServer',
    ]);
  });
});
