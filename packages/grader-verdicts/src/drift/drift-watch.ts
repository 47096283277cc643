import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import { z } from 'zod';
import {
  type BankCase,
  caseContentHash,
  type Expectation,
  expectationHolds,
  readBank,
} from '../bank.js';
import { GraderInputError } from '../errors/grader-input-error.js';
import type { Grade } from '../grade.js';
import { builtinGraders, type GraderEntry, graderIdentity } from '../graders/builtin.js';
import type { GradeOptions } from '../graders/grader.js';
import { loadTypeScript } from '../graders/workspace.js';
import { type Verdict, verdicts } from '../verdict.js';
import { checkSeal, type Seal, sealKeyVariable, sealOf } from './seal.js';

/** Exit codes of a drift check, one per signal; a broken seal outranks a flip, a flip a move. */
export const driftExitCodes = { ok: 0, flip: 3, graderMoved: 4, sealBroken: 5 } as const;

/** What every bank run takes: the graders, where their sources are, and the environment. */
export interface BankOptions extends GradeOptions {
  readonly graders?: Readonly<Record<string, GraderEntry>>;
  /** Where the graders' source files are read for their hashes (the package by default). */
  readonly sourceRoot?: string;
  /** Read for the seal key; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One case graded: what it must get, what it got, and whether that holds. */
export interface CaseResult {
  readonly id: string;
  readonly grader: string;
  readonly expect: Expectation;
  readonly verdict: Verdict;
  readonly holds: boolean;
  readonly reason: string;
  readonly why: string;
}

/** The meta check: every fixture graded once; ok only when the bank is non-empty and all hold. */
export interface MetaReport {
  readonly ok: boolean;
  readonly results: readonly CaseResult[];
}

async function gradeCase(bankCase: BankCase, options: BankOptions): Promise<Grade> {
  const graders = options.graders ?? builtinGraders;
  const entry = Object.hasOwn(graders, bankCase.grader) ? graders[bankCase.grader] : undefined;
  if (entry === undefined) {
    throw new GraderInputError(
      join(bankCase.dir, 'case.json'),
      `bank case ${bankCase.id} names grader '${bankCase.grader}', which is not registered`,
    );
  }
  return entry.grade(
    bankCase.task,
    bankCase.dir,
    graderIdentity(entry, options.sourceRoot),
    options,
  );
}

function caseResult(bankCase: BankCase, grade: Grade): CaseResult {
  return {
    id: bankCase.id,
    grader: bankCase.grader,
    expect: bankCase.expect,
    verdict: grade.verdict,
    holds: expectationHolds(bankCase.expect, grade.verdict),
    reason: grade.reason,
    why: bankCase.why,
  };
}

/** Grades every fixture of the bank once and says which ones flipped from their verdict. */
export async function runMeta(bankDir: string, options: BankOptions = {}): Promise<MetaReport> {
  const results: CaseResult[] = [];
  for (const bankCase of readBank(bankDir)) {
    options.onProgress?.(`meta ${bankCase.id}`);
    results.push(caseResult(bankCase, await gradeCase(bankCase, options)));
  }
  return { ok: results.length > 0 && results.every((result) => result.holds), results };
}

const frozenSchema = z.object({
  v: z.literal(1),
  frozenAt: z.string(),
  toolchain: z.record(z.string(), z.string()),
  graders: z.record(z.string(), z.string()),
  cases: z.array(
    z.object({
      id: z.string(),
      grader: z.string(),
      verdict: z.enum(verdicts),
      content: z.string(),
    }),
  ),
  seal: z.object({ sha256: z.string(), hmac: z.string().optional() }),
});

/** The frozen bank as written by `freeze`: golden verdicts, grader hashes, toolchain, seal. */
export type FrozenBank = z.infer<typeof frozenSchema>;

/** The file `freeze` writes and `check` reads, inside the bank folder. */
export function frozenPath(bankDir: string): string {
  return join(bankDir, 'frozen.json');
}

/** The versions that can change a verdict without a grader's file changing. */
export async function toolchainVersions(): Promise<Record<string, string>> {
  return { node: process.version, typescript: (await loadTypeScript()).version };
}

function unsealed(frozen: FrozenBank): Omit<FrozenBank, 'seal'> {
  const { seal: _seal, ...rest } = frozen;
  return rest;
}

/** What `freeze` wrote: the frozen bank and the file it is in. */
export interface FrozenWrite {
  readonly path: string;
  readonly frozen: FrozenBank;
}

/** Why `freeze` refused: a fixture does not hold; `meta` has every case's result. */
export interface FreezeRefusal extends Refusal<'refused'> {
  readonly meta: MetaReport;
}

/** What `freeze` did, or why it refused (and wrote nothing). */
export type FreezeResult = Either<FreezeRefusal, FrozenWrite>;

/**
 * Freezes the bank: grades every case, and — only if every fixture holds, so a drifted grader
 * is never vouched for — writes the verdicts, every grader's hash, the toolchain and a seal.
 * The seal carries an HMAC when the key variable is set.
 */
export async function freezeBank(
  bankDir: string,
  options: BankOptions & { readonly now?: Date } = {},
): Promise<FreezeResult> {
  const graders = options.graders ?? builtinGraders;
  const bank = readBank(bankDir);
  const results: CaseResult[] = [];
  const cases: FrozenBank['cases'] = [];
  for (const bankCase of bank) {
    options.onProgress?.(`freeze ${bankCase.id}`);
    const grade = await gradeCase(bankCase, options);
    results.push(caseResult(bankCase, grade));
    cases.push({
      id: bankCase.id,
      grader: bankCase.grader,
      verdict: grade.verdict,
      content: caseContentHash(bankCase.dir),
    });
  }
  const meta = { ok: results.length > 0 && results.every((result) => result.holds), results };
  if (!meta.ok) return left({ ...refusal('refused', 'a fixture does not hold'), meta });
  const body = {
    v: 1 as const,
    frozenAt: (options.now ?? new Date()).toISOString(),
    toolchain: await toolchainVersions(),
    graders: Object.fromEntries(
      Object.entries(graders).map(([id, entry]) => [
        id,
        graderIdentity(entry, options.sourceRoot).hash,
      ]),
    ),
    cases,
  };
  const seal: Seal = sealOf(body, (options.env ?? process.env)[sealKeyVariable]);
  const frozen: FrozenBank = { ...body, seal };
  const path = frozenPath(bankDir);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(frozen, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return right({ path, frozen });
}

/** One frozen case that flipped: its frozen verdict and what the two re-grades gave. */
export interface Flip {
  readonly id: string;
  readonly grader: string;
  readonly frozen: Verdict;
  readonly now: readonly [Verdict, Verdict];
  /** Whether the grader's hash moved too; a flip under an unmoved hash is behavioural drift. */
  readonly graderMoved: boolean;
}

/** Everything `check` found, and the exit code it maps to. */
export interface DriftReport {
  readonly code: (typeof driftExitCodes)[keyof typeof driftExitCodes];
  readonly sealProblems: readonly string[];
  readonly hmacUnverified: boolean;
  readonly flips: readonly Flip[];
  readonly movedGraders: readonly { id: string; frozen: string | null; now: string | null }[];
  /** Toolchain versions that differ from the frozen ones: reported, not failed on. */
  readonly toolchainChanges: readonly string[];
  /** Bank cases that are not frozen yet (reported; freeze again to include them). */
  readonly unfrozenCases: readonly string[];
  /** The first re-grade of every case, for the meta check that `verify` runs alongside. */
  readonly meta: MetaReport | null;
}

/** Reads the frozen bank; a file that is absent is an input error, one that is malformed is a broken seal. */
function readFrozen(path: string): FrozenBank | { broken: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new GraderInputError(path, `nothing is frozen at ${path}: run freeze first`, {
      cause: error,
    });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { broken: `${path} is not JSON` };
  }
  const parsed = frozenSchema.safeParse(raw);
  return parsed.success ? parsed.data : { broken: `${path} does not have the frozen bank's shape` };
}

/**
 * Checks the bank against what was frozen. The seal first — a broken seal, an edited case or a
 * malformed file stops everything (trust nothing). Then every frozen case is re-graded twice;
 * a verdict that differs from the frozen one in either run is a flip. Grader hashes are
 * compared: a moved grader needs a conscious re-freeze.
 */
export async function checkBank(bankDir: string, options: BankOptions = {}): Promise<DriftReport> {
  const env = options.env ?? process.env;
  const graders = options.graders ?? builtinGraders;
  const read = readFrozen(frozenPath(bankDir));
  const empty = {
    flips: [],
    movedGraders: [],
    toolchainChanges: [],
    unfrozenCases: [],
    meta: null,
    hmacUnverified: false,
  };
  if ('broken' in read)
    return { ...empty, code: driftExitCodes.sealBroken, sealProblems: [read.broken] };
  const frozen = read;
  const seal = checkSeal(unsealed(frozen), frozen.seal, env[sealKeyVariable]);
  const bank = readBank(bankDir);
  const byId = new Map(bank.map((bankCase) => [bankCase.id, bankCase]));
  const sealProblems = [...seal.problems];
  for (const frozenCase of frozen.cases) {
    const bankCase = byId.get(frozenCase.id);
    if (bankCase === undefined)
      sealProblems.push(`frozen case ${frozenCase.id} is gone from the bank`);
    else if (caseContentHash(bankCase.dir) !== frozenCase.content) {
      sealProblems.push(`case ${frozenCase.id} was edited after it was frozen`);
    } else if (bankCase.grader !== frozenCase.grader) {
      sealProblems.push(`case ${frozenCase.id} now names another grader`);
    }
  }
  if (sealProblems.length > 0) {
    return {
      ...empty,
      code: driftExitCodes.sealBroken,
      sealProblems,
      hmacUnverified: seal.hmacUnverified,
    };
  }

  const current = Object.fromEntries(
    Object.entries(graders).map(([id, entry]) => [
      id,
      graderIdentity(entry, options.sourceRoot).hash,
    ]),
  );
  const movedGraders = [...new Set([...Object.keys(frozen.graders), ...Object.keys(current)])]
    .sort()
    .filter((id) => frozen.graders[id] !== current[id])
    .map((id) => ({ id, frozen: frozen.graders[id] ?? null, now: current[id] ?? null }));
  const moved = new Set(movedGraders.map((grader) => grader.id));

  const flips: Flip[] = [];
  const results: CaseResult[] = [];
  for (const frozenCase of frozen.cases) {
    const bankCase = byId.get(frozenCase.id) as BankCase;
    options.onProgress?.(`check ${bankCase.id}`);
    const first = await gradeCase(bankCase, options);
    const second = await gradeCase(bankCase, options);
    results.push(caseResult(bankCase, first));
    if (first.verdict !== frozenCase.verdict || second.verdict !== frozenCase.verdict) {
      flips.push({
        id: frozenCase.id,
        grader: frozenCase.grader,
        frozen: frozenCase.verdict,
        now: [first.verdict, second.verdict],
        graderMoved: moved.has(frozenCase.grader),
      });
    }
  }
  const frozenIds = new Set(frozen.cases.map((frozenCase) => frozenCase.id));
  const now = await toolchainVersions();
  const toolchainChanges = Object.keys({ ...frozen.toolchain, ...now })
    .sort()
    .filter((name) => frozen.toolchain[name] !== now[name])
    .map(
      (name) =>
        `${name}: frozen ${frozen.toolchain[name] ?? 'absent'}, now ${now[name] ?? 'absent'}`,
    );
  const code =
    flips.length > 0
      ? driftExitCodes.flip
      : movedGraders.length > 0
        ? driftExitCodes.graderMoved
        : driftExitCodes.ok;
  return {
    code,
    sealProblems: [],
    hmacUnverified: seal.hmacUnverified,
    flips,
    movedGraders,
    toolchainChanges,
    unfrozenCases: bank
      .filter((bankCase) => !frozenIds.has(bankCase.id))
      .map((bankCase) => bankCase.id),
    meta: { ok: results.length > 0 && results.every((result) => result.holds), results },
  };
}
