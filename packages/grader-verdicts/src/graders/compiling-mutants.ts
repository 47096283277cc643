// Which mutants compile: a type checker over one source and its mutants, kept in memory, and
// the mutants it keeps (a mutant that adds type errors is no bug a test could catch).
import { dirname, resolve } from 'node:path';
import type * as TS from 'typescript';
import { applyMutant, type Mutant } from './mutants.js';

function compilerOptions(ts: typeof TS): TS.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2023.d.ts'],
  };
}

// The compiler's own library files never change while a process runs: parse each once.
const libraryFiles = new Map<string, TS.SourceFile>();

/**
 * A type checker for one source file that is asked again and again about edited versions of
 * it: library files are parsed once and every new program reuses the previous one. `options`
 * replaces the grader's own strict defaults (a project's tsconfig, read by `planMutation`).
 */
export function sourceChecker(
  ts: typeof TS,
  file: string,
  text: string,
  options: TS.CompilerOptions = compilerOptions(ts),
) {
  const target = resolve(file);
  const base = ts.createCompilerHost(options, true);
  const cache = new Map<string, TS.SourceFile>();
  const libraryDir = dirname(base.getDefaultLibFileName(options));
  let current = text;
  const host: TS.CompilerHost = {
    ...base,
    getSourceFile(name, languageVersion, onError) {
      if (resolve(name) === target)
        return ts.createSourceFile(name, current, languageVersion, true);
      const library = name.startsWith(libraryDir);
      const cached = (library ? libraryFiles : cache).get(name);
      if (cached !== undefined) return cached;
      const loaded = base.getSourceFile(name, languageVersion, onError);
      if (loaded !== undefined) (library ? libraryFiles : cache).set(name, loaded);
      return loaded;
    },
    fileExists: (name) => resolve(name) === target || base.fileExists(name),
    readFile: (name) => (resolve(name) === target ? current : base.readFile(name)),
  };
  let previous: TS.Program | undefined;
  const program = (source: string) => {
    current = source;
    previous = ts.createProgram([target], options, host, previous);
    return previous;
  };
  const errors = (source: string): number => {
    const built = program(source);
    const sourceFile = built.getSourceFile(target);
    return (
      built.getSyntacticDiagnostics(sourceFile).length +
      built.getSemanticDiagnostics(sourceFile).length
    );
  };
  return { program, errors, target, directory: dirname(target) };
}

/** The source with several mutants applied at once (their spans must not overlap). */
function applyAll(text: string, mutants: readonly Mutant[]): string {
  let out = '';
  let cursor = 0;
  for (const mutant of [...mutants].sort((a, b) => a.start - b.start)) {
    out += text.slice(cursor, mutant.start) + mutant.replacement;
    cursor = mutant.end;
  }
  return out + text.slice(cursor);
}

/** The names a piece of source mentions. */
function namesIn(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/**
 * The mutants that compile: no more errors than the true source. Checking each alone costs a
 * type check per mutant (each program is checked afresh); instead mutants whose spans do not
 * overlap are checked together in one program, and a group with errors is halved until each
 * error is pinned on its mutants (a group of four or fewer is checked one by one).
 *
 * A group can hide an error: a mutant that removes code (a return value, a condition, a block,
 * a literal emptied) can remove the very place where another mutant's error would show. So a
 * group holds at most one such "remover" per function (or top-level statement); what is left
 * is a mutant whose only error shows in another function, removed there by a mutant of the
 * same group (then it is counted as compiling and runs like any other). When the true source
 * itself has errors, a mutant fixing one could hide another's, so then each is checked alone.
 */
export function compilingMutants(
  checker: ReturnType<typeof sourceChecker>,
  text: string,
  mutants: readonly Mutant[],
  units: (mutant: Mutant) => number = () => 0,
): Mutant[] {
  const baseline = checker.errors(text);
  const alone = (mutant: Mutant) => checker.errors(applyMutant(text, mutant)) <= baseline;
  if (baseline > 0) return mutants.filter(alone);
  const removes = (mutant: Mutant) => {
    const kept = namesIn(mutant.replacement);
    return [...namesIn(mutant.original)].some((name) => !kept.has(name));
  };
  const layers: { members: Mutant[]; units: Set<number> }[] = [];
  for (const mutant of [...mutants].sort((a, b) => a.start - b.start || a.end - b.end)) {
    const unit = removes(mutant) ? units(mutant) : undefined;
    const layer = layers.find(
      (candidate) =>
        (candidate.members.at(-1) as Mutant).end <= mutant.start &&
        (unit === undefined || !candidate.units.has(unit)),
    );
    const target = layer ?? { members: [], units: new Set<number>() };
    if (layer === undefined) layers.push(target);
    target.members.push(mutant);
    if (unit !== undefined) target.units.add(unit);
  }
  const valid = new Set<number>();
  const check = (group: readonly Mutant[]): void => {
    if (group.length === 0) return;
    if (group.length <= 4) {
      for (const mutant of group) if (alone(mutant)) valid.add(mutant.id);
      return;
    }
    if (checker.errors(applyAll(text, group)) === 0) {
      for (const mutant of group) valid.add(mutant.id);
      return;
    }
    const half = Math.ceil(group.length / 2);
    check(group.slice(0, half));
    check(group.slice(half));
  };
  for (const layer of layers) check(layer.members);
  return mutants.filter((mutant) => valid.has(mutant.id));
}
