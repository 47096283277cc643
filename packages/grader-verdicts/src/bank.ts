import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { GraderInputError } from './errors/grader-input-error.js';
import { packageRoot } from './graders/builtin.js';
import { listFiles } from './graders/workspace.js';
import { type Verdict, verdicts } from './verdict.js';

/** What a bank case must get: one verdict, or anything but one (`{ not: 'CORRECT' }`). */
export type Expectation = Verdict | { readonly not: Verdict };

const caseSchema = z.object({
  grader: z.string().min(1),
  expect: z.union([z.enum(verdicts), z.object({ not: z.enum(verdicts) })]),
  why: z.string().min(1),
  task: z.unknown(),
});

/** One fixture of the bank: a task, the grader that judges it and the verdict it must get. */
export interface BankCase {
  readonly id: string;
  readonly grader: string;
  readonly expect: Expectation;
  readonly why: string;
  readonly task: unknown;
  /** The case's folder; the task's paths are relative to it. */
  readonly dir: string;
}

/** The bank shipped with this package (`bank/` beside `dist/`). */
export function bundledBankDir(): string {
  return join(packageRoot(), 'bank');
}

/** Reads every case under `<bankDir>/cases/<id>/case.json`, in id order. */
export function readBank(bankDir: string): BankCase[] {
  const casesDir = join(bankDir, 'cases');
  let ids: string[];
  try {
    ids = readdirSync(casesDir)
      .filter((id) => statSync(join(casesDir, id)).isDirectory())
      .sort();
  } catch (error) {
    throw new GraderInputError(casesDir, `the bank has no readable cases folder at ${casesDir}`, {
      cause: error,
    });
  }
  return ids.map((id) => {
    const file = join(casesDir, id, 'case.json');
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new GraderInputError(file, `bank case ${id}: case.json is not readable JSON`, {
        cause: error,
      });
    }
    const parsed = caseSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new GraderInputError(
        file,
        `bank case ${id}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is malformed'}`.trim(),
      );
    }
    return { id, ...parsed.data, dir: join(casesDir, id) };
  });
}

/** The sha256 over a case folder's files (paths and bytes): editing any of them changes it. */
export function caseContentHash(caseDir: string): string {
  const hash = createHash('sha256');
  for (const file of listFiles(caseDir)) {
    const bytes = readFileSync(join(caseDir, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/** Whether a verdict meets an expectation. */
export function expectationHolds(expectation: Expectation, verdict: Verdict): boolean {
  return typeof expectation === 'string' ? verdict === expectation : verdict !== expectation.not;
}

/** An expectation as text: `UNSOUND`, or `not CORRECT`. */
export function formatExpectation(expectation: Expectation): string {
  return typeof expectation === 'string' ? expectation : `not ${expectation.not}`;
}
