import { bundledBankDir } from './bank.js';
import {
  type BankOptions,
  checkBank,
  type DriftReport,
  driftExitCodes,
} from './drift/drift-watch.js';
import { builtinGraders } from './graders/builtin.js';
import { type AuditReport, auditGraders } from './registry.js';

/** The one gate: the leakage audit, the meta bank and the drift check, with one verdict. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly audit: AuditReport;
  readonly drift: DriftReport;
}

/**
 * Runs every guard over a bank (the bundled one by default): the audit of the registered
 * graders, then the drift check, whose first re-grade of each case is also the meta check.
 * Ok only when the audit passes, every fixture holds and nothing drifted.
 */
export async function verifyGraders(
  options: BankOptions & { readonly bankDir?: string } = {},
): Promise<VerifyReport> {
  const graders = options.graders ?? builtinGraders;
  const audit = auditGraders(Object.values(graders).map((entry) => entry.declaration));
  const drift = await checkBank(options.bankDir ?? bundledBankDir(), { ...options, graders });
  return {
    ok: audit.ok && drift.code === driftExitCodes.ok && drift.meta?.ok === true,
    audit,
    drift,
  };
}
