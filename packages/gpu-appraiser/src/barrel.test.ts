import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;

describe('the built @mecha/gpu-appraiser', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'AppraiserInputError',
      'appraisalLimitRanges',
      'appraiserStatusAt',
      'buildInterpretationGrammar',
      'buildQuoteGrammar',
      'openAppraiser',
      'reserveKvPages',
      'reservedTokens',
      'serveAppraiser',
      'unsupportedInterpretation',
    ]);
  });
});
