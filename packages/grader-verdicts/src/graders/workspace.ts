import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { GraderInputError } from '../errors/grader-input-error.js';

const prefix = 'mecha-verdicts-';

type TypeScript = typeof import('typescript');

/** Loads the TypeScript compiler once, only when a grader needs it. */
export async function loadTypeScript(): Promise<TypeScript> {
  const module = await import('typescript');
  return (module.default ?? module) as TypeScript;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary copies a grader left when it was killed (SIGKILL skips every clean-up):
 * each copy's name carries its owner's pid, and a copy whose owner is gone is an orphan.
 */
export function sweepOrphans(root = tmpdir()): number {
  let swept = 0;
  for (const name of readdirSync(root)) {
    const match = /^mecha-verdicts-(\d+)-/.exec(name);
    if (match === null || alive(Number(match[1]))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
    swept += 1;
  }
  return swept;
}

/** A new temporary folder owned by this process, named so an orphan can be found later. */
export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), `${prefix}${process.pid}-`));
}

/** Every file under `dir` (relative paths), skipping node_modules and dot folders. */
export function listFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(dir, path));
    }
  };
  walk(dir);
  return files;
}

/** Reads a file a task names, or says which one is missing. */
export function readTaskFile(dir: string, file: string, role: string): string {
  try {
    return readFileSync(join(dir, file), 'utf8');
  } catch (error) {
    throw new GraderInputError(
      join(dir, file),
      `the ${role} ${JSON.stringify(file)} cannot be read in ${dir}`,
      { cause: error },
    );
  }
}

/** TypeScript to runnable ESM, one file at a time (no type check: that is a grader's job). */
export function transpile(ts: TypeScript, text: string, fileName: string): string {
  return ts.transpileModule(text, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      rewriteRelativeImportExtensions: true,
      sourceMap: false,
    },
  }).outputText;
}

/** The `.js` path a `.ts` file runs as. */
export function runnablePath(file: string): string {
  return file.replace(/\.(m|c)?tsx?$/, '.js');
}

/**
 * Copies a task folder into a fresh temporary folder and makes it runnable: every `.ts` file
 * (not `.d.ts`) is transpiled beside itself, and the folder is an ES module scope. The task's
 * own files are only read. `extra` files (a hidden reference) are added to the copy.
 */
export function prepareWorkspace(
  ts: TypeScript,
  taskDir: string,
  extra: Readonly<Record<string, string>> = {},
): string {
  const dir = makeTempDir();
  cpSync(taskDir, dir, {
    recursive: true,
    filter: (source) => !/(^|\/)(node_modules|\.git)$/.test(source),
  });
  for (const [file, text] of Object.entries(extra)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  for (const file of listFiles(dir)) {
    if (!/\.(m|c)?tsx?$/.test(file) || /\.d\.(m|c)?ts$/.test(file)) continue;
    const text = readFileSync(join(dir, file), 'utf8');
    writeFileSync(join(dir, runnablePath(file)), transpile(ts, text, file));
  }
  return dir;
}

/** Removes a temporary folder; never throws (a clean-up must not mask a verdict). */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
