import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type {
  AuditReport,
  DriftReport,
  GapTrend,
  Grade,
  MetaReport,
  SelfImageAudit,
  VerifyReport,
} from '@mecha/grader-verdicts';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { flag } from '../parse-command.js';

// Loaded only when a verdicts command runs: the graders bring the TypeScript compiler.
const verdictsModule = () => import('@mecha/grader-verdicts');

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

const claims: Command = {
  path: 'verdicts claims',
  summary: 'grade self-claims ("reliable at X") against verified behaviour',
  help: [
    'Usage: mecha verdicts claims <evidence.json> [--record FILE] [--json]',
    '',
    "Grades each skill's soft self-grade against its verified success rate: earned (CORRECT,",
    'over at least the reliability floor of attempts), flattery (UNSOUND), premature (ABSTAIN),',
    'undue self-doubt (WRONG), honest weakness (CORRECT); and checks that every published',
    'strength is earned. The file is JSON:',
    '  {"skills": [{"skill": "news", "selfGrade": 0.9, "attempts": 40, "verifiedSuccesses": 34}],',
    '   "published": ["news"]}',
    'Without "published", the strengths the badge would publish (same floor) are checked.',
    '',
    'Options:',
    '  --record FILE   append the belief − behaviour gap to FILE (JSON lines) and show its trend',
    '                  (the trend abstains below five readings)',
    '  --json          the audit as JSON',
    '',
    'Exit codes: 0 no flattery and an honest portrait, 1 otherwise, 2 usage.',
    '',
  ].join('\n'),
  options: { record: { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    const [file, extra] = positionals;
    if (file === undefined) return usageError(context, this.path, 'name an evidence file');
    const record = values.record;
    if (record === '') return usageError(context, this.path, '--record needs a file');
    if (extra !== undefined)
      return usageError(context, this.path, `unexpected argument '${extra}'`);
    return guarded(context, this.path, async () => {
      const { auditSelfImage, auditSelfImageOverTime, selfImageInputSchema, reliabilityFloor } =
        await verdictsModule();
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
      if (flag(values, 'json')) json(context, audit);
      else {
        const width = Math.max(5, ...audit.grades.map((grade) => grade.skill.length));
        context.stdout(
          [
            `self-image: ${audit.ok ? 'honest' : 'NOT honest'} (a strength needs ${reliabilityFloor} verified attempts)`,
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

const prune: Command = {
  path: 'verdicts prune',
  summary: "check a memory-prune plan's proof and the owner's signature",
  help: [
    'Usage: mecha verdicts prune <signed-plan.json> --public-key FILE [--json]',
    '',
    'A prune plan lists the memories an ablation verdict backs removing (redundant or harmful),',
    'with the proof that removing them, alone and together, turned no held-out query from',
    "right to wrong. It is applied only under the owner's Ed25519 signature. This command",
    'verifies the signature (PEM public key) and shows the plan and its proof; applying it to',
    "a store goes through @mecha/grader-verdicts' applyPrunePlan with the store's own remove",
    'function (the knowledge-graph wiring is not part of this command yet).',
    '',
    'Options:',
    "  --public-key FILE  the owner's Ed25519 public key (PEM)",
    '  --json             the check as JSON',
    '',
    'Exit codes: 0 signed by the owner, 1 not signed or not verifiable, 2 usage.',
    '',
  ].join('\n'),
  options: { 'public-key': { type: 'string' }, json: { type: 'boolean' } },
  // Grading reads task folders and banks, never a mecha home.
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    const [file, extra] = positionals;
    if (file === undefined) return usageError(context, this.path, 'name a signed plan file');
    if (extra !== undefined)
      return usageError(context, this.path, `unexpected argument '${extra}'`);
    const keyFile = values['public-key'];
    if (typeof keyFile !== 'string' || keyFile === '') {
      return usageError(context, this.path, "--public-key names the owner's public key file");
    }
    return guarded(context, this.path, async () => {
      const { signedPrunePlanSchema, verifyPrunePlan, GraderInputError } = await verdictsModule();
      const parsed = signedPrunePlanSchema.safeParse(await readJson(context, file));
      if (!parsed.success) return failure(context, this.path, `${file} is not a signed prune plan`);
      let key: string;
      try {
        key = readFileSync(resolve(context.cwd, keyFile), 'utf8');
      } catch (error) {
        throw new GraderInputError(keyFile, `the public key ${keyFile} cannot be read`, {
          cause: error,
        });
      }
      const signed = verifyPrunePlan(parsed.data, key);
      const plan = parsed.data.plan;
      if (flag(values, 'json')) json(context, { signed, plan });
      else {
        (signed ? context.stdout : context.stderr)(
          [
            signed
              ? "prune plan: signed by the owner's key"
              : "prune plan: NOT signed by the owner's key — it cannot be applied",
            `  remove ${plan.memories.length}: ${plan.memories.join(', ') || '(none)'}`,
            ...plan.proof.heldBack.map((held) => `  held back ${held.memory}: ${held.reason}`),
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
