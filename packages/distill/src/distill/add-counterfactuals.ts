import { randomBytes } from 'node:crypto';
import { pendingReflections } from '@mecha/appraisal-core';
import type { MechaHome } from '@mecha/stores';
import type { DistillReport } from './distill-report.js';

/**
 * The counterfactual step of a distill pass: one reflection per decided comparison not yet
 * reflected, worded by mecha from the comparison's record (no model), carrying the session's
 * appraisal taint, appended to `appraisals/counterfactuals.jsonl`. A comparison of a session
 * with no appraisal waits for a later pass; a dry run counts and writes nothing.
 */
export async function addCounterfactuals(
  home: MechaHome,
  now: Date,
  dryRun: boolean,
): Promise<NonNullable<DistillReport['counterfactuals']>> {
  const [comparisons, reflections, appraisals] = await Promise.all([
    home.appraisals.comparisons.read(),
    home.appraisals.counterfactuals.read(),
    home.appraisals.textAppraisals.read(),
  ]);
  // A reflection store that cannot be read cannot say which comparisons are done: write none.
  if (
    comparisons.state === 'unreadable' ||
    reflections.state === 'unreadable' ||
    appraisals.state === 'unreadable'
  ) {
    return { written: 0, waiting: 0, failed: false, storesUnreadable: true };
  }
  const pending = pendingReflections({
    comparisons: comparisons.records,
    reflections: reflections.records,
    appraisals: appraisals.records,
    now,
    newId: () => `cfr-${randomBytes(6).toString('hex')}`,
  });
  const counts = { written: 0, waiting: pending.waiting, failed: false, storesUnreadable: false };
  if (dryRun) return { ...counts, wouldWrite: pending.add.length };
  if (pending.add.length === 0) return counts;
  const written = await home.appraisals.counterfactuals.append(pending.add);
  return written._tag === 'Right'
    ? { ...counts, written: pending.add.length }
    : { ...counts, failed: true };
}
