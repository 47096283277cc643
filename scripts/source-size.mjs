// The size rule for the code under packages/ and apps/ (and tooling/fixtures/src/home, which the
// CLI bundles for `mecha demo`): no source file over 450 lines and no
// function (declaration, expression, arrow, method, accessor, constructor) over 120 lines, but
// for the declarative tables listed below, each with why. Tests, fixtures and examples are not
// held to it (the same test-file rule as scripts/layers.mjs). Functions are found with the
// TypeScript compiler; a function's lines run from its first token (after its JSDoc) to its
// last. From the repository root:
//
//   node scripts/source-size.mjs           # the violations, one a line; exit 1 when any
//   node scripts/source-size.mjs --top 20  # also the 20 longest files and functions
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));

export const maxFileLines = 450;
export const maxFunctionLines = 120;

/**
 * Files allowed over the file limit, each with why: declarative tables, where the length is the
 * number of rows and splitting would only scatter one table. The check fails when a listed file
 * is no longer over, so the list cannot go stale.
 */
export const allowedFiles = new Map([
  [
    'packages/appraisal-core/src/rules/contribution-table.ts',
    'the contribution table: one row per evidence kind, read as one table',
  ],
]);

/**
 * Functions allowed over the function limit, keyed `path: name` (the name as this check prints
 * it), each with why. Stale entries fail like the files'.
 */
export const allowedFunctions = new Map([
  // Debts (#32): each to leave this list when its function is split.
]);

const codeFile = /\.(?:[cm]?[jt]sx?)$/;
const skipped = new Set(['node_modules', 'dist', '.turbo', '.vitest', 'coverage', '.git']);

const isTestFile = (path) =>
  /\.test(?:-d)?\.[cm]?[jt]sx?$/.test(path) ||
  /(?:^|[/\\])(?:test|__fixtures__|__tests__|examples)[/\\]/.test(path);

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (skipped.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (codeFile.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) {
      out.push(path);
    }
  }
  return out;
}

/**
 * The non-test source files under packages/, apps/ and tooling/fixtures/src/home (shipped
 * inside the CLI), as paths relative to `root` with `/`.
 */
export function sourceFiles(root = repoRoot) {
  return ['packages', 'apps', 'tooling/fixtures/src/home']
    .flatMap((group) => walk(join(root, group)))
    .map((path) => relative(root, path).split(sep).join('/'))
    .filter((path) => !isTestFile(path))
    .sort();
}

const lineCount = (text) => {
  if (text.length === 0) return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
};

const scriptKind = (path) =>
  path.endsWith('x')
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(path)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;

function propertyName(name, source) {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(source);
}

/** The name this check gives a function: `f`, `Class.method`, `x` for `const x = () => …`. */
function functionName(node, source) {
  const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const owner = (n) => {
    const parent = n.parent;
    if (parent && (ts.isClassDeclaration(parent) || ts.isClassExpression(parent)) && parent.name) {
      return `${parent.name.text}.`;
    }
    return '';
  };
  if (ts.isConstructorDeclaration(node)) return `${owner(node)}constructor`;
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) {
    const name = propertyName(node.name, source);
    if (name) return `${owner(node)}${name}`;
  }
  if (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
    const kind = ts.isGetAccessorDeclaration(node) ? 'get' : 'set';
    return `${owner(node)}${kind} ${propertyName(node.name, source)}`;
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  if (parent && (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    const name = propertyName(parent.name, source);
    if (name) return `${owner(parent)}${name}`;
  }
  return `(anonymous function at line ${line})`;
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

/** Every function with a body in `text`, with its name and its length in lines. */
export function functionSizes(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path));
  const found = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: functionName(node, source), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The sizes of the source files at `root` and every breach of the rule, as sentences: a file or
 * function over its limit and not allowed, and an allowed one that is no longer over.
 */
export function sourceSizes({
  root = repoRoot,
  files: allowedFileTable = allowedFiles,
  functions: allowedFunctionTable = allowedFunctions,
} = {}) {
  const files = [];
  const functions = [];
  for (const path of sourceFiles(root)) {
    const text = readFileSync(join(root, path), 'utf8');
    files.push({ path, lines: lineCount(text) });
    for (const fn of functionSizes(path, text)) functions.push({ path, ...fn });
  }
  const violations = [];
  const overFiles = new Set();
  for (const file of files) {
    if (file.lines <= maxFileLines) continue;
    overFiles.add(file.path);
    if (!allowedFileTable.has(file.path)) {
      violations.push(`${file.path} has ${file.lines} lines (at most ${maxFileLines})`);
    }
  }
  for (const path of allowedFileTable.keys()) {
    if (!overFiles.has(path)) {
      violations.push(
        `${path} is allowed over ${maxFileLines} lines but is not (remove it from allowedFiles)`,
      );
    }
  }
  const overFunctions = new Set();
  for (const fn of functions) {
    if (fn.lines <= maxFunctionLines) continue;
    const key = `${fn.path}: ${fn.name}`;
    overFunctions.add(key);
    if (!allowedFunctionTable.has(key)) {
      violations.push(
        `${fn.path}:${fn.line} ${fn.name} has ${fn.lines} lines (at most ${maxFunctionLines})`,
      );
    }
  }
  for (const key of allowedFunctionTable.keys()) {
    if (!overFunctions.has(key)) {
      violations.push(
        `${key} is allowed over ${maxFunctionLines} lines but is not (remove it from allowedFunctions)`,
      );
    }
  }
  return { files, functions, violations };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, functions, violations } = sourceSizes();
  const topAt = process.argv.indexOf('--top');
  if (topAt !== -1) {
    const top = Number(process.argv[topAt + 1] ?? 20);
    const longest = (rows) => [...rows].sort((a, b) => b.lines - a.lines).slice(0, top);
    console.log('longest files:');
    for (const f of longest(files)) console.log(`  ${String(f.lines).padStart(5)}  ${f.path}`);
    console.log('longest functions:');
    for (const f of longest(functions)) {
      console.log(`  ${String(f.lines).padStart(5)}  ${f.path}:${f.line} ${f.name}`);
    }
  }
  for (const violation of violations) console.log(violation);
  process.exitCode = violations.length > 0 ? 1 : 0;
}
