import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;

describe('the built @mecha/gpu-appraiser', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'AppraiserInputError',
      'appraisalFlags',
      'appraisalLimitRanges',
      'appraiserStatusAt',
      'buildInterpretationGrammar',
      'buildQuoteGrammar',
      'callsPerSource',
      'contextRevisions',
      'correctionContextLimit',
      'currentProcessor',
      'defaultAppraisalLimits',
      'interpretationFields',
      'isExplicitPromise',
      'kvPageTokens',
      'maxContextBytes',
      'maxContextReferences',
      'maxQuotes',
      'openAppraiser',
      'parseInterpretation',
      'parseQuotes',
      'parserVersion',
      'previousProcessor',
      'processorDigest',
      'renderContext',
      'reserveKvPages',
      'reservedTokens',
      'scaleMax',
      'serveAppraiser',
      'sharedLeaseRevision',
      'unknownValue',
      'unsupportedInterpretation',
      'validateAppraisalLimits',
    ]);
  });

  it('names the processor by the digest of its response contract', async () => {
    const api = await import(entry);
    expect(api.currentProcessor).toMatch(/^[0-9a-f]{64}$/);
    expect(api.processorDigest()).toBe(api.currentProcessor);
    expect(api.previousProcessor).not.toBe(api.currentProcessor);
  });
});
