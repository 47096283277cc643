import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;

describe('the built @mecha/grader-verdicts', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'GraderInputError',
      'applyGraphPrune',
      'auditGraders',
      'auditHomeSelfImage',
      'auditSelfImage',
      'auditSelfImageOverTime',
      'builtinGraders',
      'bundledBankDir',
      'checkBank',
      'driftExitCodes',
      'formatExpectation',
      'freezeBank',
      'gradeByMutation',
      'gradeLoop',
      'gradeTask',
      'graphEvaluator',
      'guardBound',
      'planGraphPrune',
      'planMutation',
      'prunePlanSchema',
      'readQueryBank',
      'readSkillEvidence',
      'reliabilityFloor',
      'runMeta',
      'sealQueryBank',
      'selfImageInputSchema',
      'signPrunePlan',
      'signedPrunePlanSchema',
      'snapshotGraph',
      'tallyVerdicts',
      'verdictCode',
      'verdicts',
      'verifyGraders',
      'verifyPrunePlan',
      'warmTimeLimitMs',
    ]);
  });
});
