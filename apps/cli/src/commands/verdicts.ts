import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import type {
  AuditReport,
  DriftReport,
  GapTrend,
  Grade,
  GraphAccess,
  GraphPrunePlanReport,
  MetaReport,
  PrunePlan,
  SelfImageAudit,
  SignedPrunePlan,
  SkillEvidence,
  SkillEvidenceReadout,
  VerifyReport,
} from '@mecha/grader-verdicts';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { openCommandHome } from '../home.js';
import { flag, stringOption } from '../parse-command.js';

// Loaded only when a verdicts command runs: the graders bring the TypeScript compiler.
const verdictsModule = () => import('@mecha/grader-verdicts');

/**
 * The knowledge graph as pruning reaches it: @mecha/graph's store and its file snapshot, passed
 * into the grader-verdicts use-case (which stands alone). Loaded only when a graph is measured:
 * it brings the SQLite binding. The planted poison's facts come from its metadata alone.
 */
async function graphAccess(): Promise<GraphAccess> {
  const { metadataExtractor, openGraphStore, snapshotGraphFile } = await import('@mecha/graph');
  return {
    openGraph: (path) => openGraphStore({ path, extractor: metadataExtractor }),
    snapshotGraphFile,
  };
}

const bankOption =
  '  --bank DIR      the bank folder (default: the bank shipped with @mecha/grader-verdicts)';

function json(context: CommandContext, value: unknown): void {
  context.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Runs a use-case; a bad input (a missing bank, a malformed task) is a failure with its message. */
async function guarded(
  context: CommandContext,
  path: string,
  work: () => Promise<number>,
): Promise<number> {
  try {
    return await work();
  } catch (error) {
    const { GraderInputError } = await verdictsModule();
    if (GraderInputError.isInstance(error)) return failure(context, path, error.message);
    throw error;
  }
}

function bankDir(context: CommandContext, values: Record<string, unknown>): string | undefined {
  const bank = values.bank;
  return typeof bank === 'string' ? resolve(context.cwd, bank) : undefined;
}

function renderAudit(report: AuditReport): string[] {
  return [
    `audit: ${report.ok ? 'every grader earns the verdict it claims' : 'a grader claims what it cannot earn'}`,
    ...report.findings.map(
      (finding) =>
        `  ${finding.ok ? 'ok  ' : 'FAIL'} ${finding.id.padEnd(18)} ${finding.kind.padEnd(16)} declared ${finding.intendedRung}, detected ${finding.detectedRung ?? '?'}, claims ${finding.claims}, earns ${finding.earns ?? '?'}${finding.problems.map((problem) => `\n         ${problem}`).join('')}`,
    ),
  ];
}

function renderMeta(
  report: MetaReport,
  expectation: (e: MetaReport['results'][number]['expect']) => string,
): string[] {
  const held = report.results.filter((result) => result.holds).length;
  return [
    `meta: ${held} of ${report.results.length} fixtures hold${report.ok ? '' : ' — a grader drifted'}`,
    ...report.results.map(
      (result) =>
        `  ${result.holds ? 'ok  ' : 'FLIP'} ${result.id.padEnd(36)} must be ${expectation(result.expect).padEnd(12)} got ${result.verdict}${result.holds ? '' : ` (${result.reason})`}`,
    ),
  ];
}

function renderDrift(report: DriftReport): string[] {
  const lines: string[] = [];
  if (report.sealProblems.length > 0) {
    lines.push(
      'check: SEAL BROKEN — trusting nothing',
      ...report.sealProblems.map((p) => `  ${p}`),
    );
    return lines;
  }
  const state =
    report.flips.length > 0
      ? 'a verdict FLIPPED'
      : report.movedGraders.length > 0
        ? 'a grader MOVED (re-freeze to re-vouch for it)'
        : 'no drift';
  lines.push(`check: ${state}`);
  for (const flip of report.flips) {
    lines.push(
      `  flip ${flip.id}: frozen ${flip.frozen}, now ${flip.now.join(' / ')}${flip.graderMoved ? ' (its grader moved too)' : ' (grader unchanged: behavioural drift)'}`,
    );
  }
  for (const moved of report.movedGraders) {
    lines.push(
      `  moved ${moved.id}: ${moved.frozen?.slice(0, 12) ?? 'absent'} → ${moved.now?.slice(0, 12) ?? 'absent'}`,
    );
  }
  if (report.hmacUnverified)
    lines.push('  the HMAC was not verified: no key in MECHA_VERDICTS_SEAL_KEY');
  for (const change of report.toolchainChanges) lines.push(`  toolchain ${change}`);
  for (const id of report.unfrozenCases) lines.push(`  not frozen yet: ${id}`);
  return lines;
}

const audit: Command = {
  path: 'verdicts audit',
  summary: "classify every grader's leakage rung and fail on a claim it cannot earn",
  help: [
    'Usage: mecha verdicts audit [--json]',
    '',
    "Reads each registered grader's declaration (intended rung, claimed verdict) and the shape",
    'of its kind, and fails when a grader claims CORRECT on a rung that cannot earn it or when',
    'its detected rung is worse than the declared one. L0 hidden reference, L1 self-reference,',
    'L2 escape hatch.',
    '',
    'Exit codes: 0 every grader holds, 1 one does not, 2 usage.',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    const { auditGraders, builtinGraders } = await verdictsModule();
    const report = auditGraders(Object.values(builtinGraders).map((entry) => entry.declaration));
    if (flag(values, 'json')) json(context, report);
    else context.stdout(`${renderAudit(report).join('\n')}\n`);
    return report.ok ? exitCodes.ok : exitCodes.failure;
  },
};

const meta: Command = {
  path: 'verdicts meta',
  summary: 'grade every fixture of the bank and fail loudly when one flips',
  help: [
    'Usage: mecha verdicts meta [--bank DIR] [--json]',
    '',
    'Grades each fixture of the bank (a vacuous test, a mute-button type fix, a wrong',
    'implementation, …) with its grader and compares the verdict with the one it must get.',
    '',
    'Options:',
    bankOption,
    '  --json          the results as JSON',
    '',
    'Exit codes: 0 every fixture holds, 1 one flipped (or the bank cannot be read), 2 usage.',
    '',
  ].join('\n'),
  options: { bank: { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    return guarded(context, this.path, async () => {
      const { runMeta, bundledBankDir, formatExpectation } = await verdictsModule();
      const report = await runMeta(bankDir(context, values) ?? bundledBankDir());
      if (flag(values, 'json')) json(context, report);
      else context.stdout(`${renderMeta(report, formatExpectation).join('\n')}\n`);
      return report.ok ? exitCodes.ok : exitCodes.failure;
    });
  },
};

const freeze: Command = {
  path: 'verdicts freeze',
  summary: 'seal the bank: golden verdicts, grader hashes, toolchain',
  help: [
    'Usage: mecha verdicts freeze [--bank DIR] [--json]',
    '',
    'Grades every case and, only if every fixture holds, writes <bank>/frozen.json: each',
    "case's verdict and content hash, the sha256 of every grader, the toolchain versions and a",
    'seal (sha256 of the canonical JSON, plus an HMAC when MECHA_VERDICTS_SEAL_KEY is set).',
    'Re-freezing after a grader change is a conscious act: it re-vouches for the grader.',
    '',
    'Options:',
    bankOption,
    '  --json          the frozen bank as JSON',
    '',
    'Exit codes: 0 frozen, 1 not frozen (a fixture does not hold), 2 usage.',
    '',
  ].join('\n'),
  options: { bank: { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    return guarded(context, this.path, async () => {
      const { freezeBank, bundledBankDir, formatExpectation } = await verdictsModule();
      const result = await freezeBank(bankDir(context, values) ?? bundledBankDir(), {
        env: context.env,
      });
      if (flag(values, 'json')) json(context, result);
      else if (result.ok) {
        context.stdout(
          `frozen ${result.frozen.cases.length} cases into ${result.path}${result.frozen.seal.hmac === undefined ? '' : ' (HMAC-sealed)'}\n`,
        );
      } else {
        context.stderr(
          `${renderMeta(result.meta, formatExpectation).join('\n')}\nnot frozen: a fixture does not hold\n`,
        );
      }
      return result.ok ? exitCodes.ok : exitCodes.failure;
    });
  },
};

const check: Command = {
  path: 'verdicts check',
  summary: 're-grade the frozen bank twice and report drift',
  help: [
    'Usage: mecha verdicts check [--bank DIR] [--json]',
    '',
    'Verifies the seal of <bank>/frozen.json (and its HMAC when MECHA_VERDICTS_SEAL_KEY is',
    'set), then re-grades every frozen case twice and compares verdicts and grader hashes.',
    '',
    'Options:',
    bankOption,
    '  --json          the report as JSON',
    '',
    'Exit codes: 0 no drift; 3 a verdict flipped (behavioural drift when the grader did not',
    'change); 4 a grader changed (re-freeze to re-vouch); 5 the seal is broken (an edited',
    'bank: nothing is trusted, nothing is graded); 1 nothing frozen; 2 usage.',
    '',
  ].join('\n'),
  options: { bank: { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    return guarded(context, this.path, async () => {
      const { checkBank, bundledBankDir } = await verdictsModule();
      const report = await checkBank(bankDir(context, values) ?? bundledBankDir(), {
        env: context.env,
      });
      if (flag(values, 'json')) json(context, report);
      else
        (report.code === 0 ? context.stdout : context.stderr)(
          `${renderDrift(report).join('\n')}\n`,
        );
      return report.code;
    });
  },
};

const verify: Command = {
  path: 'verdicts verify',
  summary: 'the one gate: audit, meta and the drift check',
  help: [
    'Usage: mecha verdicts verify [--bank DIR] [--json]',
    '',
    'Runs the audit, then the drift check, whose first re-grade of each case is the meta check.',
    '',
    'Options:',
    bankOption,
    '  --json          the three reports as JSON',
    '',
    'Exit codes: 0 every guard holds, 1 one does not, 2 usage.',
    '',
  ].join('\n'),
  options: { bank: { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  takesNoArguments: true,
  async run({ values, context }) {
    return guarded(context, this.path, async () => {
      const { verifyGraders, formatExpectation } = await verdictsModule();
      const dir = bankDir(context, values);
      const report: VerifyReport = await verifyGraders({
        env: context.env,
        ...(dir === undefined ? {} : { bankDir: dir }),
      });
      if (flag(values, 'json')) json(context, report);
      else {
        const lines = [
          ...renderAudit(report.audit),
          ...(report.drift.meta === null ? [] : renderMeta(report.drift.meta, formatExpectation)),
          ...renderDrift(report.drift),
          `verify: ${report.ok ? 'ok' : 'FAILED'}`,
        ];
        (report.ok ? context.stdout : context.stderr)(`${lines.join('\n')}\n`);
      }
      return report.ok ? exitCodes.ok : exitCodes.failure;
    });
  },
};

function renderGrade(grade: Grade): string {
  return [
    `${grade.verdict} — ${grade.reason}`,
    ...grade.notes.map((note) => `  note: ${note}`),
    ...grade.evidence.map((line) => `  ${line}`),
    `  grader ${grade.grader.id} ${grade.grader.hash.slice(0, 12)}`,
  ].join('\n');
}

const grade: Command = {
  path: 'verdicts grade',
  summary: 'grade one task; the exit code is the verdict (0–3)',
  help: [
    'Usage: mecha verdicts grade <grader> <task.json> [--json]',
    '',
    'Grades one task with a registered grader. The task file is JSON; its paths are relative',
    'to the task file:',
    '  mutation          {"dir": ".", "source": "clamp.ts", "test": "clamp.test.ts"}',
    '  typecheck         {"dir": ".", "edited": ["length.ts"]}',
    '  hidden-reference  {"dir": "artefact", "reference": "../hidden/ref.test.ts"}',
    'Tests are node:test files; TypeScript is transpiled in a temporary copy (import siblings',
    "as './name.js'). The task's own files are only read.",
    '',
    'Options:',
    '  --json          the grade as JSON',
    '',
    'Exit codes are the verdict: 0 CORRECT, 1 WRONG, 2 UNSOUND, 3 ABSTAIN. A usage error also',
    'exits 2 but prints nothing on stdout; a task that cannot be read exits 1 with a message on',
    'stderr.',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    const [grader, taskFile, extra] = positionals;
    if (grader === undefined || taskFile === undefined) {
      return usageError(context, this.path, 'name a grader and a task file');
    }
    if (extra !== undefined)
      return usageError(context, this.path, `unexpected argument '${extra}'`);
    return guarded(context, this.path, async () => {
      const { gradeTask, verdictCode, GraderInputError } = await verdictsModule();
      const path = resolve(context.cwd, taskFile);
      let task: unknown;
      try {
        task = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new GraderInputError(path, `the task file ${path} is not readable JSON`, {
          cause: error,
        });
      }
      const result = await gradeTask(grader, task, dirname(path));
      if (flag(values, 'json')) json(context, result);
      else context.stdout(`${renderGrade(result)}\n`);
      return verdictCode(result.verdict);
    });
  },
};

/** Reads a JSON file a command was given, or says why not (a GraderInputError). */
async function readJson(context: CommandContext, file: string): Promise<unknown> {
  const { GraderInputError } = await verdictsModule();
  const path = resolve(context.cwd, file);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new GraderInputError(path, `${path} is not readable JSON`, { cause: error });
  }
}

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

const claims: Command = {
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
        auditSelfImage,
        auditSelfImageOverTime,
        selfImageInputSchema,
        reliabilityFloor,
        readSkillEvidence,
      } = await verdictsModule();
      let skills: SkillEvidence[];
      let published: string[] | undefined;
      let fromHome: SkillEvidenceReadout | undefined;
      if (file === undefined) {
        const home = openCommandHome({ ...context, homeMustExist: true });
        const readout = await readSkillEvidence(home);
        if ('unreadable' in readout) {
          return failure(
            context,
            this.path,
            `the home's ${readout.unreadable.join(', ')} cannot be read: no self-claim is graded`,
          );
        }
        fromHome = readout;
        skills = [...readout.skills];
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
        skills = parsed.data.skills;
        published = parsed.data.published;
      }
      let audit: SelfImageAudit;
      let trend: GapTrend | null | undefined;
      if (typeof record === 'string') {
        const overTime = auditSelfImageOverTime(
          skills,
          resolve(context.cwd, record),
          new Date(),
          published,
        );
        audit = overTime;
        trend = overTime.trend;
      } else {
        audit = auditSelfImage(skills, published);
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

/** Writes a JSON file the command produced, never over an existing one. */
async function writeNewJson(
  context: CommandContext,
  file: string,
  value: unknown,
): Promise<string> {
  const { GraderInputError } = await verdictsModule();
  const path = resolve(context.cwd, file);
  try {
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`, { flag: 'wx' });
  } catch (error) {
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    throw new GraderInputError(
      path,
      exists ? `${path} already exists: name a new file` : `${path} cannot be written`,
      { cause: error },
    );
  }
  return path;
}

/** Reads a key file a command was given, or says why not. */
async function readKey(context: CommandContext, file: string): Promise<string> {
  const { GraderInputError } = await verdictsModule();
  try {
    return readFileSync(resolve(context.cwd, file), 'utf8');
  } catch (error) {
    throw new GraderInputError(file, `the key ${file} cannot be read`, { cause: error });
  }
}

function renderGraphPlan(report: GraphPrunePlanReport): string[] {
  const name = (memory: string) => {
    const found = report.ablation.find((result) => result.memory === memory);
    return found === undefined ? memory : `${memory} (${found.source} ${found.sourceId})`;
  };
  return [
    `prune --graph: ${report.queries} held-out queries on ${report.ablation.length} memories (dry run: nothing was changed)`,
    ...report.refusedQueries.map((refused) => `  query ${refused.id}: ${refused.reason}`),
    `  self-test: ${report.selfTest.reason}`,
    ...report.ablation.map(
      (result) =>
        `  ${result.worth.padEnd(10)} ${name(result.memory)}: used by ${result.usedBy}, without it ${result.lost} lost, ${result.gained} gained`,
    ),
    ...(report.proof === null
      ? ['  nothing proposed: the oracle could not show it sees harm']
      : [
          `  proposed ${report.proposals.length}, proved ${report.proof.accepted.length}: ${report.proof.accepted.map(name).join(', ') || '(none)'}`,
          ...report.proof.heldBack.map(
            (held) => `  held back ${name(held.memory)}: ${held.reason}`,
          ),
          `  held-out queries right: ${report.proof.correctBefore} → ${report.proof.correctAfter} of ${report.proof.queries}`,
        ]),
  ];
}

const prune: Command = {
  path: 'verdicts prune',
  summary: 'memory that must earn its keep: measure, plan, sign and apply graph pruning',
  help: [
    'Usage: mecha verdicts prune --graph FILE --bank QUERIES.json [--out PLAN.json] [--json]',
    '       mecha verdicts prune --sign PLAN.json --private-key FILE --out SIGNED.json',
    '       mecha verdicts prune --graph FILE --bank QUERIES.json --apply SIGNED.json',
    '                            --public-key FILE [--json]',
    '       mecha verdicts prune SIGNED.json --public-key FILE [--json]',
    '',
    'Each episode of the knowledge graph (one distilled session, one note) is a memory. It earns',
    'its keep only if taking it out makes held-out queries worse. With --graph and --bank (a dry',
    'run), every memory is measured on a private snapshot of the graph file: taken out with the',
    "graph's own redaction, then every query answered from the current beliefs. Each memory is",
    'keep, weak, redundant, harmful or unmeasured (no query reached it). A planted poison must',
    'be found harmful first, or nothing is proposed. Only redundant and harmful memories are',
    'proposed, and only those whose removal, alone and together, turns no query from right to',
    'wrong go into the plan. The graph file is only read.',
    '',
    "The plan takes effect only under the owner's Ed25519 signature (--sign). --apply checks the",
    "signature, the bank's seal and that the graph has not changed since the plan, measures",
    'again, and only then redacts the planned episodes. Anything else is refused and the graph',
    'is left as it was. With only a signed plan and --public-key, the signature is checked.',
    '',
    'QUERIES.json: {"v": 1, "queries": [{"id": "q1", "subject": "Priya Nair", "predicate":',
    '  "is at", "expected": "Yale", "basis": "her staff page"}]}. A query is right when the',
    '  current facts about the subject with that predicate say exactly the expected object. A',
    '  query without a basis (independent ground truth) is refused as unfalsifiable.',
    '',
    'Options:',
    "  --graph FILE        the graph's SQLite file (as mecha-graph-mcp --db names it)",
    '  --bank FILE         the held-out queries',
    '  --out FILE          write the plan (or the signed plan) here; an existing file is refused',
    '  --sign FILE         sign this plan with --private-key',
    "  --private-key FILE  the owner's Ed25519 private key (PEM)",
    '  --apply FILE        apply this signed plan to --graph',
    "  --public-key FILE   the owner's Ed25519 public key (PEM)",
    '  --json              the report as JSON',
    '',
    'Exit codes: 0 planned / signed / applied / signature verified; 1 refused, not signed, the',
    'oracle abstained (nothing proposed), or an input that cannot be read; 2 usage.',
    '',
  ].join('\n'),
  options: {
    graph: { type: 'string' },
    bank: { type: 'string' },
    out: { type: 'string' },
    sign: { type: 'string' },
    'private-key': { type: 'string' },
    apply: { type: 'string' },
    'public-key': { type: 'string' },
    json: { type: 'boolean' },
  },
  // Pruning reads a graph file and key files, never a mecha home.
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    const [file, extra] = positionals;
    if (extra !== undefined)
      return usageError(context, this.path, `unexpected argument '${extra}'`);
    const given = (name: string) => {
      const value = stringOption(values, name);
      return value === undefined || value === '' ? undefined : value;
    };
    for (const name of ['graph', 'bank', 'out', 'sign', 'private-key', 'apply', 'public-key']) {
      if (values[name] === '') return usageError(context, this.path, `--${name} needs a file`);
    }
    const graph = given('graph');
    const bank = given('bank');
    const out = given('out');
    const sign = given('sign');
    const privateKey = given('private-key');
    const apply = given('apply');
    const publicKey = given('public-key');
    const asJson = flag(values, 'json');

    if (sign !== undefined) {
      if (file !== undefined || graph !== undefined || apply !== undefined || bank !== undefined)
        return usageError(context, this.path, '--sign takes only --private-key and --out');
      if (privateKey === undefined || out === undefined)
        return usageError(context, this.path, '--sign needs --private-key and --out');
      return guarded(context, this.path, async () => {
        const { prunePlanSchema, signPrunePlan, GraderInputError } = await verdictsModule();
        const parsed = prunePlanSchema.safeParse(await readJson(context, sign));
        if (!parsed.success) return failure(context, this.path, `${sign} is not a prune plan`);
        const key = await readKey(context, privateKey);
        let signed: SignedPrunePlan;
        try {
          signed = signPrunePlan(parsed.data as PrunePlan, key);
        } catch (error) {
          throw new GraderInputError(privateKey, `${privateKey} is not an Ed25519 private key`, {
            cause: error,
          });
        }
        const path = await writeNewJson(context, out, signed);
        context.stdout(`signed the plan (${parsed.data.memories.length} memories) into ${path}\n`);
        return exitCodes.ok;
      });
    }

    if (graph !== undefined) {
      if (file !== undefined)
        return usageError(context, this.path, 'with --graph, name the signed plan with --apply');
      if (bank === undefined) return usageError(context, this.path, '--graph needs --bank');
      // A postgres:// URL is passed as given, for the graph to refuse by name (prune measures
      // SQLite graph files); anything else is a file path.
      const graphPath = /^postgres(?:ql)?:\/\//i.test(graph) ? graph : resolve(context.cwd, graph);
      if (apply !== undefined) {
        if (publicKey === undefined)
          return usageError(context, this.path, "--apply needs the owner's --public-key");
        if (out !== undefined) return usageError(context, this.path, '--apply writes no --out');
        return guarded(context, this.path, async () => {
          const { readQueryBank, signedPrunePlanSchema, applyGraphPrune } = await verdictsModule();
          const queries = readQueryBank(resolve(context.cwd, bank));
          const parsed = signedPrunePlanSchema.safeParse(await readJson(context, apply));
          if (!parsed.success)
            return failure(context, this.path, `${apply} is not a signed prune plan`);
          const key = await readKey(context, publicKey);
          const result = await applyGraphPrune(
            graphPath,
            parsed.data as SignedPrunePlan,
            key,
            queries,
            await graphAccess(),
          );
          if (asJson) json(context, result);
          else if (result.ok) {
            context.stdout(
              [
                `prune applied: ${result.removed.length} memories redacted from ${graphPath}`,
                ...result.removed.map(
                  (removal) =>
                    `  ${removal.memory} (${stripControl(removal.source)} ${stripControl(removal.sourceId)}): ${removal.report.facts_closed} facts closed`,
                ),
                '',
              ].join('\n'),
            );
          }
          if (!result.ok) {
            if (!asJson) context.stderr(`prune refused, nothing changed: ${result.reason}\n`);
            return exitCodes.failure;
          }
          return exitCodes.ok;
        });
      }
      if (publicKey !== undefined || privateKey !== undefined)
        return usageError(context, this.path, 'a dry run takes no key');
      return guarded(context, this.path, async () => {
        const { readQueryBank, planGraphPrune } = await verdictsModule();
        const queries = readQueryBank(resolve(context.cwd, bank));
        const report = await planGraphPrune(graphPath, queries, await graphAccess());
        const written =
          out !== undefined && report.plan !== null
            ? await writeNewJson(context, out, report.plan)
            : undefined;
        if (asJson) json(context, report);
        else {
          context.stdout(
            `${[
              ...renderGraphPlan(report).map(stripControl),
              ...(written === undefined
                ? []
                : [`  plan written to ${written}: sign it with --sign to make it applicable`]),
            ].join('\n')}\n`,
          );
        }
        return report.plan === null ? exitCodes.failure : exitCodes.ok;
      });
    }

    if (file === undefined)
      return usageError(context, this.path, 'name --graph and --bank, --sign, or a signed plan');
    if (publicKey === undefined)
      return usageError(context, this.path, "--public-key names the owner's public key file");
    return guarded(context, this.path, async () => {
      const { signedPrunePlanSchema, verifyPrunePlan } = await verdictsModule();
      const parsed = signedPrunePlanSchema.safeParse(await readJson(context, file));
      if (!parsed.success) return failure(context, this.path, `${file} is not a signed prune plan`);
      const key = await readKey(context, publicKey);
      const signed = verifyPrunePlan(parsed.data as SignedPrunePlan, key);
      const plan = parsed.data.plan;
      if (asJson) json(context, { signed, plan });
      else {
        (signed ? context.stdout : context.stderr)(
          [
            signed
              ? "prune plan: signed by the owner's key"
              : "prune plan: NOT signed by the owner's key — it cannot be applied",
            `  remove ${plan.memories.length}: ${plan.memories.map(stripControl).join(', ') || '(none)'}`,
            ...plan.proof.heldBack.map(
              (held) => `  held back ${stripControl(held.memory)}: ${stripControl(held.reason)}`,
            ),
            `  held-out queries right: ${plan.proof.correctBefore} → ${plan.proof.correctAfter} of ${plan.proof.queries}`,
            '',
          ].join('\n'),
        );
      }
      return signed ? exitCodes.ok : exitCodes.failure;
    });
  },
};

/** `mecha verdicts`: @mecha/grader-verdicts' graders and guards, loaded only when named. */
export const verdictsGroup: CommandGroup = {
  name: 'verdicts',
  summary: 'honest graders: audit, meta bank, drift watch, grade, self-claims, prune',
  commands: [audit, meta, freeze, check, verify, grade, claims, prune],
};
