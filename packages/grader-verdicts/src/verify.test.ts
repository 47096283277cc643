import { describe, expect, it } from 'vitest';
import { bundledBankDir, formatExpectation, readBank } from './bank.js';
import { driftExitCodes } from './drift/drift-watch.js';
import { verifyGraders } from './verify.js';

// This is the gate `npm test` runs on the bank shipped with the package: the audit, every
// meta fixture, and the drift check against the frozen verdicts and grader hashes. After a
// deliberate grader change it stays red until the bank is re-frozen (`pnpm run freeze-bank`).
describe('verify on the bundled bank', () => {
  it('holds: the audit passes, every fixture holds, nothing drifted', async () => {
    const report = await verifyGraders();
    const failing = (report.drift.meta?.results ?? [])
      .filter((result) => !result.holds)
      .map(
        (result) =>
          `${result.id}: must be ${formatExpectation(result.expect)}, got ${result.verdict}`,
      );
    expect(failing).toEqual([]);
    expect(report.audit.ok).toBe(true);
    expect({
      code: report.drift.code,
      seal: report.drift.sealProblems,
      flips: report.drift.flips,
      moved: report.drift.movedGraders.map((grader) => grader.id),
      unfrozen: report.drift.unfrozenCases,
    }).toEqual({ code: driftExitCodes.ok, seal: [], flips: [], moved: [], unfrozen: [] });
    expect(report.ok).toBe(true);
  });

  it('covers every fixture the bank must hold', () => {
    const bank = readBank(bundledBankDir());
    const rows = bank.map((bankCase) => `${bankCase.grader} ${formatExpectation(bankCase.expect)}`);
    for (const row of [
      'mutation UNSOUND', // the vacuous test is rejected
      'mutation CORRECT', // a real test is accepted
      'mutation ABSTAIN', // nothing to mutate abstains
      'mutation not CORRECT', // a test that contradicts the spec
      'typecheck UNSOUND', // the mute-button fix is rejected
      'typecheck CORRECT', // a clean strict file is accepted
      'typecheck WRONG', // a still-broken file is rejected
      'hidden-reference CORRECT', // a correct implementation is accepted
      'hidden-reference WRONG', // a wrong one is rejected
      'hidden-reference ABSTAIN', // an empty reference is no pass
      'hidden-reference not CORRECT', // references that conflict
    ]) {
      expect(rows).toContain(row);
    }
  });
});
