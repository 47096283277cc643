import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as TS from 'typescript';
import { GraderInputError } from '../errors/grader-input-error.js';
import { compilingMutants, sourceChecker } from './compiling-mutants.js';
import { switchMutants } from './mutant-switch.js';
import { findMutants, type Mutant, mutantUnits } from './mutants.js';
import { loadTypeScript } from './workspace.js';

/**
 * The grader's mutants of one source file, ready for a runner other than its own `node:test`
 * workers (the mutation script grades the core's vitest suites with it): every mutant found,
 * those the type check rejects, those no switch could be placed for, and the instrumented module
 * that holds all the others behind one active-mutant id (`globalThis.__mechaSwitch.id`, −1 for
 * none; see `switchMutants`). The file itself is only read.
 */
export interface MutationPlan {
  /** The source file, as an absolute path. */
  readonly file: string;
  /** The mutants a runner runs: they compile and are switched in `instrumented`. */
  readonly mutants: readonly Mutant[];
  /** Mutants the type check rejects (more errors than the true source). */
  readonly invalid: readonly Mutant[];
  /** Mutants that compile but no switch could be placed for. */
  readonly unswitchable: readonly Mutant[];
  /** The instrumented TypeScript text to load in place of the file. */
  readonly instrumented: string;
}

/** Where a plan's ids start, and the tsconfig whose compiler options the type check uses. */
export interface MutationPlanOptions {
  /**
   * The first mutant's id (default 0): several files planned for one process share one
   * switch, so their ids must not overlap.
   */
  readonly firstId?: number;
  /**
   * A tsconfig.json whose compiler options replace the grader's strict defaults, so a mutant
   * the project's own compiler would reject is rejected here too.
   */
  readonly tsconfig?: string;
}

function projectOptions(ts: typeof TS, tsconfig: string): TS.CompilerOptions {
  const problems: string[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(tsconfig),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        problems.push(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined || problems.length > 0) {
    throw new GraderInputError(
      tsconfig,
      `the tsconfig ${JSON.stringify(tsconfig)} cannot be read: ${problems.join('; ') || 'unknown error'}`,
    );
  }
  return { ...parsed.options, noEmit: true };
}

/**
 * Finds, type-checks and switches the mutants of one TypeScript file, the way
 * `gradeByMutation` does before it runs any test. A file whose true source does not type-check
 * still gets a plan: each mutant is then checked alone against the source's own error count.
 */
export async function planMutation(
  file: string,
  options: MutationPlanOptions = {},
): Promise<MutationPlan> {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new GraderInputError(path, `the source ${JSON.stringify(file)} cannot be read`, {
      cause: error,
    });
  }
  const ts = await loadTypeScript();
  const checker = sourceChecker(
    ts,
    path,
    text,
    options.tsconfig === undefined ? undefined : projectOptions(ts, options.tsconfig),
  );
  const program = checker.program(text);
  const sourceFile = program.getSourceFile(checker.target);
  if (sourceFile === undefined) {
    throw new GraderInputError(path, `the source ${JSON.stringify(file)} cannot be parsed`);
  }
  const firstId = options.firstId ?? 0;
  const all = findMutants(ts, sourceFile, program.getTypeChecker()).map((mutant) => ({
    ...mutant,
    id: mutant.id + firstId,
  }));
  const compiling = compilingMutants(checker, text, all, mutantUnits(ts, sourceFile));
  const switched = switchMutants(ts, sourceFile, compiling);
  const unswitchable = new Set(switched.unswitchable);
  const compiles = new Set(compiling.map((mutant) => mutant.id));
  return {
    file: path,
    mutants: compiling.filter((mutant) => !unswitchable.has(mutant.id)),
    invalid: all.filter((mutant) => !compiles.has(mutant.id)),
    unswitchable: compiling.filter((mutant) => unswitchable.has(mutant.id)),
    instrumented: switched.text,
  };
}
