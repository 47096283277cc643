import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { GraderInputError } from '../errors/grader-input-error.js';
import type { Grade, GraderIdentity } from '../grade.js';
import type { GraderDeclaration } from '../registry.js';
import type { GradeOptions } from './grader.js';
import { gradeHiddenReference, hiddenReferenceGraderSources } from './hidden-reference-grader.js';
import { gradeByMutation, mutationGraderSources } from './mutation-grader.js';
import { gradeTypecheck, typecheckGraderSources } from './typecheck-grader.js';

/**
 * A grader as the registry holds it: its declaration, the files its hash covers, and how it
 * grades a task given as JSON whose paths are relative to `baseDir`.
 */
export interface GraderEntry {
  readonly declaration: GraderDeclaration;
  readonly sources: readonly string[];
  grade(
    task: unknown,
    baseDir: string,
    identity: GraderIdentity,
    options?: GradeOptions,
  ): Promise<Grade>;
}

/** The folder this package is installed in (where `src/` and `bank/` are shipped). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
      if (name === '@mecha/grader-verdicts') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new GraderInputError('package.json', 'the @mecha/grader-verdicts folder is not found');
    }
    dir = parent;
  }
}

/**
 * The sha256 of a grader: over each of its source files' path and bytes, in order. A grader
 * whose files changed has moved, and what was frozen under the old hash must be re-vouched.
 */
export function graderHash(sources: readonly string[], root: string = packageRoot()): string {
  const hash = createHash('sha256');
  for (const source of [...sources].sort()) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, source));
    } catch (error) {
      throw new GraderInputError(source, `the grader source ${source} is missing`, {
        cause: error,
      });
    }
    hash.update(`${source}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

function parseTask<T>(schema: z.ZodType<T>, task: unknown, grader: string): T {
  const parsed = schema.safeParse(task);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GraderInputError(
      'task',
      `a ${grader} task needs ${issue === undefined ? 'a valid shape' : `${issue.path.join('.') || 'an object'}: ${issue.message}`}`,
    );
  }
  return parsed.data;
}

const mutationTask = z.object({
  dir: z.string().default('.'),
  source: z.string().min(1),
  test: z.string().min(1),
});
const typecheckTask = z.object({
  dir: z.string().default('.'),
  edited: z.array(z.string().min(1)),
});
const hiddenReferenceTask = z.object({
  dir: z.string().default('.'),
  reference: z.string().min(1),
});

/** The graders mecha ships, by id. Each is L0 by construction and claims CORRECT. */
export const builtinGraders: Readonly<Record<string, GraderEntry>> = {
  mutation: {
    declaration: {
      id: 'mutation',
      kind: 'mutation',
      intendedRung: 'L0',
      claims: 'CORRECT',
      task: 'write a test: it must pass on the true source and kill a mutant',
    },
    sources: mutationGraderSources,
    grade(task, baseDir, identity, options) {
      const parsed = parseTask(mutationTask, task, 'mutation');
      return gradeByMutation(identity, { ...parsed, dir: resolve(baseDir, parsed.dir) }, options);
    },
  },
  typecheck: {
    declaration: {
      id: 'typecheck',
      kind: 'typecheck',
      intendedRung: 'L0',
      claims: 'CORRECT',
      task: 'fix the type error: no mute buttons, clean under --strict',
    },
    sources: typecheckGraderSources,
    grade(task, baseDir, identity, options) {
      const parsed = parseTask(typecheckTask, task, 'typecheck');
      return gradeTypecheck(identity, { ...parsed, dir: resolve(baseDir, parsed.dir) }, options);
    },
  },
  'hidden-reference': {
    declaration: {
      id: 'hidden-reference',
      kind: 'hidden-reference',
      intendedRung: 'L0',
      claims: 'CORRECT',
      task: 'implement a function: a reference test the model never saw must pass',
    },
    sources: hiddenReferenceGraderSources,
    grade(task, baseDir, identity, options) {
      const parsed = parseTask(hiddenReferenceTask, task, 'hidden-reference');
      return gradeHiddenReference(
        identity,
        { dir: resolve(baseDir, parsed.dir), reference: resolve(baseDir, parsed.reference) },
        options,
      );
    },
  },
};

/** The identity of a registered grader: its id and the hash of its sources now. */
export function graderIdentity(entry: GraderEntry, root?: string): GraderIdentity {
  return { id: entry.declaration.id, hash: graderHash(entry.sources, root) };
}

/**
 * Grades one task with a registered grader. An unknown grader id is a `GraderInputError`
 * naming the ones there are.
 */
export function gradeTask(
  graderId: string,
  task: unknown,
  baseDir: string,
  options: GradeOptions & { readonly graders?: Readonly<Record<string, GraderEntry>> } = {},
): Promise<Grade> {
  const graders = options.graders ?? builtinGraders;
  const entry = Object.hasOwn(graders, graderId) ? graders[graderId] : undefined;
  if (entry === undefined) {
    throw new GraderInputError(
      'grader',
      `no grader '${graderId}' (there are: ${Object.keys(graders).join(', ')})`,
    );
  }
  return entry.grade(task, baseDir, graderIdentity(entry), options);
}
