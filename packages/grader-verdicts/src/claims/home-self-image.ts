import { auditSelfImageOverTime, type SelfImageOverTime } from './gap-history.js';
import { auditSelfImage, type SelfImageAudit } from './self-claims.js';
import {
  type AppraisalHome,
  readSkillEvidence,
  type SkillEvidenceReadout,
} from './skill-evidence-from-records.js';

/** A home's self-image audit, with what its records held (the `records` of `--json`). */
export interface HomeSelfImage<Audit extends SelfImageAudit = SelfImageAudit> {
  readonly audit: Audit;
  readonly records: SkillEvidenceReadout;
}

/** Where the belief-minus-behaviour gap is recorded, and when this reading is. */
export interface GapRecording {
  readonly path: string;
  readonly at: Date;
}

/**
 * The self-image audit of mecha's own agents from a home's records: each skill's evidence read
 * (`readSkillEvidence`) and audited against the badge's floor (`auditSelfImage`), or, with a
 * gap history, audited over time (`auditSelfImageOverTime`). A store that cannot be read
 * grades nothing: the result names the unreadable stores instead.
 */
export function auditHomeSelfImage(
  home: AppraisalHome,
): Promise<HomeSelfImage | { readonly unreadable: readonly string[] }>;
export function auditHomeSelfImage(
  home: AppraisalHome,
  history: GapRecording,
): Promise<HomeSelfImage<SelfImageOverTime> | { readonly unreadable: readonly string[] }>;
export async function auditHomeSelfImage(
  home: AppraisalHome,
  history?: GapRecording,
): Promise<HomeSelfImage | { readonly unreadable: readonly string[] }> {
  const records = await readSkillEvidence(home);
  if ('unreadable' in records) return records;
  const audit =
    history === undefined
      ? auditSelfImage(records.skills)
      : auditSelfImageOverTime(records.skills, history.path, history.at);
  return { audit, records };
}
