import type { SourceRead } from '@mecha/errors';
import type { SkillEvidence } from './self-claims.js';

/** The owner's acts on a session's output, in the appraisals' vocabulary. */
type Act = 'released_unchanged' | 'edited' | 'rejected' | 'closed' | 'reopened' | 'no_act';

/**
 * What mecha's own records hold for the self-image audit (the fields of `@mecha/stores`'
 * session listing, text appraisals, expectation scores and owner outcomes it reads).
 */
export interface AppraisalRecords {
  readonly sessions: SourceRead<{
    readonly sessionId: string;
    readonly kind?: string | undefined;
    readonly surface?: string | undefined;
  }>;
  readonly appraisals: SourceRead<{
    readonly session_id: string;
    readonly taint: string;
    readonly expected_act?: Act | undefined;
  }>;
  readonly scores: SourceRead<{
    readonly appraisal_id: string;
    readonly session_id: string;
    readonly actual: Act;
  }>;
  readonly ownerOutcomes: SourceRead<{
    readonly session_id: string;
    readonly kind: 'fine' | 'confirmed_error' | 'adverse_impact';
  }>;
}

/** The skills read from the records, and everything that could not be credited to one. */
export interface SkillEvidenceReadout {
  /** Skills (session kinds) with both a belief and behaviour on record. */
  readonly skills: readonly SkillEvidence[];
  /** Skills with verified attempts but no belief on record: they claim nothing. */
  readonly withoutBelief: readonly Omit<SkillEvidence, 'selfGrade'>[];
  /** Appraisals with a judged expected act that were left out because the session was not clean. */
  readonly notClean: number;
  /** Records of development and experiment sessions, kept out as every readout does. */
  readonly hidden: number;
  /** Records whose session is not listed or has no recorded kind: credited to no skill. */
  readonly unattributed: number;
  /** Some store had lines that could not be read: the counts may be short. */
  readonly partial: boolean;
}

/** The acts that say the owner took the output as it was. */
const goodActs: ReadonlySet<Act> = new Set(['released_unchanged', 'closed']);
/** The acts that judge the output either way (`no_act` judges nothing). */
const judgedActs: ReadonlySet<Act> = new Set([...goodActs, 'edited', 'rejected', 'reopened']);

/**
 * Builds each skill's evidence from mecha's own appraisal records, with no model in the path:
 *
 * - the skill is the kind a session was recorded under (its surface: `web`, `task`, `slack`…);
 *   development and experiment sessions are hidden;
 * - the belief (the soft self-grade) is the share of the skill's clean text appraisals whose
 *   expected act says the owner will take the output as it is (`released_unchanged`,
 *   `closed`) among those expecting a verdict either way;
 * - the behaviour is the owner's recorded first act on each scored appraisal's output: an
 *   attempt is any act that judges it, a verified success is the owner taking it as it was,
 *   unless the owner later reported a confirmed error or an adverse impact from that session.
 *
 * A store that cannot be read at all leaves nothing to grade: the result names it instead.
 */
export function skillEvidenceFromRecords(
  records: AppraisalRecords,
): SkillEvidenceReadout | { readonly unreadable: readonly string[] } {
  const unreadable = (Object.keys(records) as (keyof AppraisalRecords)[]).filter(
    (name) => records[name].state === 'unreadable',
  );
  const { sessions, appraisals, scores, ownerOutcomes } = records;
  if (
    unreadable.length > 0 ||
    sessions.state === 'unreadable' ||
    appraisals.state === 'unreadable' ||
    scores.state === 'unreadable' ||
    ownerOutcomes.state === 'unreadable'
  ) {
    return { unreadable };
  }
  const skillOf = new Map<string, string | null>();
  for (const session of sessions.records) {
    const hidden = session.kind === 'test' || session.kind === 'experiment';
    skillOf.set(session.sessionId, hidden ? null : (session.surface ?? ''));
  }
  let hidden = 0;
  let unattributed = 0;
  /** The skill a record is credited to, or undefined when it is hidden or unattributed. */
  const credit = (sessionId: string): string | undefined => {
    const skill = skillOf.get(sessionId);
    if (skill === null) hidden += 1;
    else if (skill === undefined || skill === '') unattributed += 1;
    else return skill;
    return undefined;
  };
  const beliefs = new Map<string, { good: number; judged: number }>();
  let notClean = 0;
  for (const appraisal of appraisals.records) {
    const expected = appraisal.expected_act;
    if (expected === undefined || !judgedActs.has(expected)) continue;
    if (appraisal.taint !== 'clean') {
      notClean += 1;
      continue;
    }
    const skill = credit(appraisal.session_id);
    if (skill === undefined) continue;
    const belief = beliefs.get(skill) ?? { good: 0, judged: 0 };
    belief.judged += 1;
    if (goodActs.has(expected)) belief.good += 1;
    beliefs.set(skill, belief);
  }
  const harmed = new Set(
    ownerOutcomes.records
      .filter((outcome) => outcome.kind !== 'fine')
      .map((outcome) => outcome.session_id),
  );
  const behaviour = new Map<string, { attempts: number; successes: number }>();
  const scored = new Set<string>();
  for (const score of scores.records) {
    // An appraisal is scored once; a repeated line is not a second attempt.
    if (scored.has(score.appraisal_id)) continue;
    scored.add(score.appraisal_id);
    if (!judgedActs.has(score.actual)) continue;
    const skill = credit(score.session_id);
    if (skill === undefined) continue;
    const tally = behaviour.get(skill) ?? { attempts: 0, successes: 0 };
    tally.attempts += 1;
    if (goodActs.has(score.actual) && !harmed.has(score.session_id)) tally.successes += 1;
    behaviour.set(skill, tally);
  }
  const skills: SkillEvidence[] = [];
  const withoutBelief: Omit<SkillEvidence, 'selfGrade'>[] = [];
  for (const skill of [...new Set([...beliefs.keys(), ...behaviour.keys()])].sort()) {
    const belief = beliefs.get(skill);
    const tally = behaviour.get(skill) ?? { attempts: 0, successes: 0 };
    const evidence = { skill, attempts: tally.attempts, verifiedSuccesses: tally.successes };
    if (belief === undefined) withoutBelief.push(evidence);
    else skills.push({ ...evidence, selfGrade: belief.good / belief.judged });
  }
  return {
    skills,
    withoutBelief,
    notClean,
    hidden,
    unattributed,
    partial: [sessions, appraisals, scores, ownerOutcomes].some(
      (store) => store.state === 'partial',
    ),
  };
}

/** The stores of a mecha home (`@mecha/stores`' `openHome`) that the self-image reads. */
export interface AppraisalHome {
  readonly sessions: { list(): Promise<AppraisalRecords['sessions']> };
  readonly appraisals: {
    readonly textAppraisals: { read(): Promise<AppraisalRecords['appraisals']> };
    readonly scores: { read(): Promise<AppraisalRecords['scores']> };
  };
  readonly ownerOutcomes: { read(): Promise<AppraisalRecords['ownerOutcomes']> };
}

/** Reads a mecha home's appraisal records and builds each skill's evidence from them. */
export async function readSkillEvidence(
  home: AppraisalHome,
): Promise<SkillEvidenceReadout | { readonly unreadable: readonly string[] }> {
  const [sessions, appraisals, scores, ownerOutcomes] = await Promise.all([
    home.sessions.list(),
    home.appraisals.textAppraisals.read(),
    home.appraisals.scores.read(),
    home.ownerOutcomes.read(),
  ]);
  return skillEvidenceFromRecords({ sessions, appraisals, scores, ownerOutcomes });
}
