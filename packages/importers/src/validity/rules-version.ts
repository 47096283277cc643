import { createHash } from 'node:crypto';
import { contributionTable, labelRules } from '@mecha/appraisal-core';

/**
 * The version of the derivation rules a readout was made under: a digest of the contribution
 * table (what signs, and by how much) and the label rules (in order). Two runs with the same
 * version read the same records the same way; a change to either table changes it.
 */
export function rulesVersion(): string {
  const text = JSON.stringify({ contributionTable, labelRules });
  return `rules-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}
