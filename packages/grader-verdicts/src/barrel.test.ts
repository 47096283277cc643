import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;

describe('the built @mecha/grader-verdicts', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'GraderInputError',
      'applyMutant',
      'auditGraders',
      'builtinGraders',
      'bundledBankDir',
      'canonicalJson',
      'caseContentHash',
      'certifiedRate',
      'checkBank',
      'checkSeal',
      'detectRung',
      'driftExitCodes',
      'earnableVerdict',
      'expectationHolds',
      'findEscapeHatches',
      'findMutants',
      'formatExpectation',
      'formatTally',
      'freezeBank',
      'frozenPath',
      'gradeByMutation',
      'gradeHiddenReference',
      'gradeLoop',
      'gradeSchema',
      'gradeTask',
      'gradeTypecheck',
      'graderHash',
      'graderIdentity',
      'graderKinds',
      'makeGrade',
      'mergeTallies',
      'mutationOperators',
      'packageRoot',
      'parseVerdict',
      'readBank',
      'retryMayHelp',
      'runMeta',
      'rungs',
      'sealKeyVariable',
      'sealOf',
      'suiteVerdict',
      'sweepOrphans',
      'tallyVerdicts',
      'toolchainVersions',
      'ungradedMessage',
      'verdictCode',
      'verdicts',
      'verifyGraders',
    ]);
  });
});
