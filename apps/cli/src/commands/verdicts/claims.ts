import { resolve } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import type {
  GapTrend,
  HomeSelfImage,
  SelfImageAudit,
  SkillEvidenceReadout,
} from '@mecha/grader-verdicts';
import { type Command, exitCodes, failure, usageError } from '../../command.js';
import { openCommandHome } from '../../home.js';
import { flag } from '../../parse-command.js';
import { guarded, json, readJson, verdictsModule } from './shared.js';

const percent = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value * 100)}%`);

/** What the home's records held beyond the graded skills, so nothing is left out silently. */
function homeRecordLines(readout: SkillEvidenceReadout): string[] {
  return [
    `  from the home's records${readout.partial ? ' (partial: some lines could not be read)' : ''}: ${readout.skills.length} skills with a belief on record`,
    ...readout.withoutBelief.map(
      (skill) =>
        `  ${stripControl(skill.skill)}: ${skill.verifiedSuccesses} of ${skill.attempts} taken as they were, but no belief on record (no claim)`,
    ),
    ...(readout.notClean + readout.hidden + readout.unattributed === 0
      ? []
      : [
          `  left out: ${readout.notClean} appraisals of sessions that were not clean, ${readout.hidden} records of development or experiment sessions, ${readout.unattributed} records of sessions with no recorded kind`,
        ]),
  ];
}

export const claims: Command = {
  path: 'verdicts claims',
  summary: 'grade self-claims ("reliable at X") against verified behaviour',
  help: [
    'Usage: mecha verdicts claims [<evidence.json>] [--record FILE] [--json]',
    '',
    "Grades each skill's soft self-grade against its verified success rate: earned (CORRECT,",
    'over at least the reliability floor of attempts), flattery (UNSOUND), premature (ABSTAIN),',
    'undue self-doubt (WRONG), honest weakness (CORRECT); and checks that every published',
    'strength is earned.',
    '',
    "Without a file, mecha's own agents are graded from the home's records (--home, else",
    'MECHA_HOME, else ~/.mecha): a skill is the kind a session ran under (web, task, slack, …;',
    'development and experiment sessions left out); the belief is the share of its clean text',
    "appraisals expecting the owner to take the output as it is; the behaviour is the owner's",
    'scored first act on it (sent unchanged or closed is a success, unless the owner later',
    'reported a confirmed error or adverse impact from that session). A store that cannot be',
    'read grades nothing.',
    '',
    'Any harness can feed its own evidence as a JSON file instead:',
    '  {"skills": [{"skill": "news", "selfGrade": 0.9, "attempts": 40, "verifiedSuccesses": 34}],',
    '   "published": ["news"]}',
    'Without "published", the strengths the badge would publish (same floor) are checked.',
    '',
    'Options:',
    '  --record FILE   append the belief − behaviour gap to FILE (JSON lines) and show its trend',
    '                  (the trend abstains below five readings)',
    '  --json          the audit as JSON (from the home: with what its records held, as records)',
    '',
    'Exit codes: 0 no flattery and an honest portrait; 1 otherwise, or the home or a store of it',
    'cannot be read; 2 usage.',
    '',
  ].join('\n'),
  options: { record: { type: 'string' }, json: { type: 'boolean' } },
  // An evidence file needs no home; without one, the home is opened and must exist.
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    const [file, extra] = positionals;
    const record = values.record;
    if (record === '') return usageError(context, this.path, '--record needs a file');
    if (extra !== undefined)
      return usageError(context, this.path, `unexpected argument '${extra}'`);
    return guarded(context, this.path, async () => {
      const {
        auditHomeSelfImage,
        auditSelfImage,
        auditSelfImageOverTime,
        selfImageInputSchema,
        reliabilityFloor,
      } = await verdictsModule();
      const history =
        typeof record === 'string'
          ? { path: resolve(context.cwd, record), at: new Date() }
          : undefined;
      let audit: SelfImageAudit;
      let trend: GapTrend | null | undefined;
      let fromHome: SkillEvidenceReadout | undefined;
      if (file === undefined) {
        const home = openCommandHome({ ...context, homeMustExist: true });
        let read: HomeSelfImage | { readonly unreadable: readonly string[] };
        if (history === undefined) read = await auditHomeSelfImage(home);
        else {
          const overTime = await auditHomeSelfImage(home, history);
          if (!('unreadable' in overTime)) trend = overTime.audit.trend;
          read = overTime;
        }
        if ('unreadable' in read) {
          return failure(
            context,
            this.path,
            `the home's ${read.unreadable.join(', ')} cannot be read: no self-claim is graded`,
          );
        }
        fromHome = read.records;
        audit = read.audit;
      } else {
        const parsed = selfImageInputSchema.safeParse(await readJson(context, file));
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          return failure(
            context,
            this.path,
            `${file}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim(),
          );
        }
        const { skills, published } = parsed.data;
        if (history === undefined) audit = auditSelfImage(skills, published);
        else {
          const overTime = auditSelfImageOverTime(skills, history.path, history.at, published);
          audit = overTime;
          trend = overTime.trend;
        }
      }
      if (flag(values, 'json'))
        json(context, fromHome === undefined ? audit : { ...audit, records: fromHome });
      else {
        const width = Math.max(5, ...audit.grades.map((grade) => grade.skill.length));
        context.stdout(
          [
            `self-image: ${audit.ok ? 'honest' : 'NOT honest'} (a strength needs ${reliabilityFloor} verified attempts)`,
            ...(fromHome === undefined ? [] : homeRecordLines(fromHome)),
            ...audit.grades.map(
              (grade) =>
                `  ${grade.skill.padEnd(width)}  believes ${percent(grade.belief)} · behaves ${percent(grade.behaviour)} · ${grade.attempts} tries → ${grade.reason} (${grade.verdict})`,
            ),
            audit.portrait.honest
              ? '  portrait: every published strength is earned'
              : `  portrait: unearned strengths: ${audit.portrait.unearned.join(', ')}`,
            `  belief − behaviour gap: ${audit.gap === null ? 'n/a' : audit.gap.toFixed(2)}`,
            ...(trend === undefined
              ? []
              : [
                  trend === null
                    ? '  gap trend: the history file cannot be read (nothing recorded)'
                    : `  gap trend: ${trend.status}${trend.slope === null ? '' : ` (${trend.slope >= 0 ? '+' : ''}${trend.slope.toFixed(3)} per reading)`}`,
                ]),
            '',
          ].join('\n'),
        );
      }
      return audit.ok ? exitCodes.ok : exitCodes.failure;
    });
  },
};
