// Lists, for every entry point of every package under packages/, each name it exports and where
// outside the package that name is imported: the apps, other packages, tooling, scripts, and
// the TypeScript/JavaScript examples in README.md, docs/*.md and the packages' READMEs. A name
// nobody outside imports is a candidate to keep internal (see docs/DEVELOPING.md, "The public
// surface"). Read with the TypeScript compiler from the sources; no build needed. From the
// repository root:
//
//   node scripts/export-usage.mjs                     # one table per entry point
//   node scripts/export-usage.mjs packages/stores     # only that package
//   node scripts/export-usage.mjs --unused            # only the names used nowhere outside
//   node scripts/export-usage.mjs --json              # the same, as JSON
//
// An import of a whole namespace (`import * as x from '@mecha/p'`) counts the names read as
// `x.name` in that file; a dynamic `import('@mecha/p')` counts as a use of every name, and is
// listed as such.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** The package folders under packages/, with their names and entry points (export map keys). */
export function packageEntries(root = repoRoot) {
  const dir = join(root, 'packages');
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => existsSync(join(path, 'package.json')))
    .map((path) => {
      const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
      const entries = Object.entries(manifest.exports ?? {})
        .filter(([, target]) => typeof target === 'object' && target !== null && target.types)
        .map(([key, target]) => {
          const source = target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
          return {
            subpath: key,
            specifier: key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`,
            source,
          };
        });
      return { dir: path, name: manifest.name, entries };
    });
}

/** The names the module at `file` exports (types and values), sorted in code-unit order. */
export function exportedNames(packageDir, file) {
  const config = ts.readConfigFile(join(packageDir, 'tsconfig.json'), ts.sys.readFile).config;
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, packageDir);
  const program = ts.createProgram([file], { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file));
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((symbol) => symbol.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const codeFile = /\.(?:[cm]?[jt]sx?)$/;
const skippedFolders = new Set(['node_modules', 'dist', '.turbo', '.vitest', 'coverage', '.git']);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (skippedFolders.has(name)) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) walk(path, out);
    else if (codeFile.test(name) || name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** Every file that may import a package: code anywhere in the repository, and Markdown docs. */
function candidateFiles(root) {
  const files = [];
  for (const group of ['apps', 'packages', 'tooling', 'scripts', 'docs']) {
    if (existsSync(join(root, group))) walk(join(root, group), files);
  }
  files.push(join(root, 'README.md'));
  return files.filter((file) => existsSync(file));
}

// The TypeScript and JavaScript blocks of a Markdown file, each with the line it starts on.
function markdownBlocks(text) {
  const blocks = [];
  const fence = /^```(ts|typescript|js|javascript|mjs|tsx)\s*$([\s\S]*?)^```\s*$/gm;
  for (const match of text.matchAll(fence)) blocks.push(match[2]);
  return blocks;
}

/**
 * The names each `@mecha/*` specifier is imported under in `code`: a map from specifier to a set
 * of names, where '*' means every name (a dynamic import).
 */
export function importsIn(code, fileName = 'file.ts') {
  const found = new Map();
  // A module imported for no name yet (a namespace whose reads are counted later) still shows.
  const touch = (specifier) => {
    if (specifier.startsWith('@mecha/') && !found.has(specifier)) found.set(specifier, new Set());
  };
  const add = (specifier, name) => {
    if (!specifier.startsWith('@mecha/')) return;
    touch(specifier);
    found.get(specifier).add(name);
  };
  const source = ts.createSourceFile(
    fileName,
    code,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const namespaces = new Map();
  const loaders = new Map();
  // What a dynamic import's module is bound to: destructured names, a namespace variable, a
  // property read off it, or (anything else) every name.
  const bind = (call, specifier) => {
    let node = call;
    let index;
    if (ts.isArrayLiteralExpression(node.parent) && ts.isCallExpression(node.parent.parent)) {
      index = node.parent.elements.indexOf(node);
      node = node.parent.parent; // Promise.all([...])
    }
    while (ts.isAwaitExpression(node.parent) || ts.isParenthesizedExpression(node.parent)) {
      node = node.parent;
    }
    const parent = node.parent;
    let target;
    if (parent && ts.isVariableDeclaration(parent)) target = parent.name;
    if (target && index !== undefined) {
      target = ts.isArrayBindingPattern(target) ? target.elements[index] : undefined;
      target = target && ts.isBindingElement(target) ? target.name : undefined;
    } else if (index === undefined && parent && ts.isPropertyAccessExpression(parent)) {
      add(specifier, parent.name.text);
      return;
    }
    if (target && ts.isObjectBindingPattern(target)) {
      for (const element of target.elements) {
        const key = element.propertyName ?? element.name;
        if (ts.isIdentifier(key)) add(specifier, key.text);
        else add(specifier, '*');
      }
    } else if (target && ts.isIdentifier(target)) {
      namespaces.set(target.text, specifier);
      touch(specifier);
    } else {
      add(specifier, '*');
    }
  };
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const specifier = node.moduleSpecifier.text;
      if (ts.isImportDeclaration(node)) {
        const bindings = node.importClause?.namedBindings;
        if (node.importClause?.name) add(specifier, 'default');
        if (node.importClause === undefined) touch(specifier);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            add(specifier, (element.propertyName ?? element.name).text);
          }
        } else if (bindings && ts.isNamespaceImport(bindings)) {
          namespaces.set(bindings.name.text, specifier);
          touch(specifier);
        }
      } else if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const element of node.exportClause.elements) {
          add(specifier, (element.propertyName ?? element.name).text);
        }
      } else {
        add(specifier, '*');
      }
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      const specifier = node.arguments[0].text;
      // `const load = () => import('x')`: the calls of `load()` are the imports.
      const arrow = node.parent;
      const holder = arrow && ts.isArrowFunction(arrow) ? arrow.parent : undefined;
      if (holder && ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) {
        loaders.set(holder.name.text, specifier);
      } else {
        bind(node, specifier);
      }
    } else if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.arguments.length === 0 &&
      loaders.has(node.expression.text)
    ) {
      bind(node, loaders.get(node.expression.text));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal) && node.qualifier && ts.isIdentifier(node.qualifier)) {
        add(literal.text, node.qualifier.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (namespaces.size > 0) {
    const read = (node) => {
      if (
        (ts.isPropertyAccessExpression(node) || ts.isQualifiedName(node)) &&
        ts.isIdentifier(ts.isPropertyAccessExpression(node) ? node.expression : node.left)
      ) {
        const left = ts.isPropertyAccessExpression(node) ? node.expression : node.left;
        const specifier = namespaces.get(left.text);
        if (specifier !== undefined) add(specifier, node.name?.text ?? node.right.text);
      }
      ts.forEachChild(node, read);
    };
    read(source);
  }
  return found;
}

/** Where a file sits, in words a reader recognises: `apps/cli`, `packages/stores`, `docs/x.md`. */
function placeOf(root, file) {
  const path = relative(root, file);
  const parts = path.split('/');
  if (['apps', 'packages', 'tooling'].includes(parts[0])) {
    return parts[0] === 'tooling' && parts[1] === 'config'
      ? parts.slice(0, 3).join('/')
      : parts.slice(0, 2).join('/');
  }
  return parts[0] === 'docs' || parts[0] === 'README.md' ? path : parts[0];
}

/**
 * The usage table: for each package entry, each exported name with the places outside the
 * package that import it (and whether only tests do).
 */
export function exportUsage({ root = repoRoot, only } = {}) {
  const packages = packageEntries(root);
  const uses = new Map(); // specifier -> name -> Map(place -> {files, testOnly})
  for (const file of candidateFiles(root)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('@mecha/')) continue;
    const chunks = file.endsWith('.md') ? markdownBlocks(text) : [text];
    const isTest = /\.test(?:-d)?\.[cm]?[jt]sx?$|\/test\/|__fixtures__/.test(file);
    for (const chunk of chunks) {
      for (const [specifier, names] of importsIn(chunk, file.endsWith('.md') ? 'x.ts' : file)) {
        for (const name of names) {
          if (!uses.has(specifier)) uses.set(specifier, new Map());
          const byName = uses.get(specifier);
          if (!byName.has(name)) byName.set(name, []);
          byName.get(name).push({ file: relative(root, file), place: placeOf(root, file), isTest });
        }
      }
    }
  }
  const result = [];
  for (const pkg of packages) {
    if (only !== undefined && resolve(pkg.dir) !== resolve(only)) continue;
    const own = relative(root, pkg.dir);
    for (const entry of pkg.entries) {
      const names = exportedNames(pkg.dir, join(pkg.dir, entry.source));
      const byName = uses.get(entry.specifier) ?? new Map();
      const everything = (byName.get('*') ?? []).filter((use) => use.place !== own);
      const rows = names.map((name) => {
        const outside = [...(byName.get(name) ?? []), ...everything].filter(
          (use) => use.place !== own,
        );
        const places = [...new Set(outside.map((use) => use.place))].sort();
        return {
          name,
          places,
          testOnly: outside.length > 0 && outside.every((use) => use.isTest),
          files: [...new Set(outside.map((use) => use.file))].sort(),
        };
      });
      result.push({ package: pkg.name, entry: entry.specifier, dir: own, names: rows });
    }
  }
  return result;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const only = args.find((arg) => !arg.startsWith('--'));
  const table = exportUsage({ only: only === undefined ? undefined : resolve(only) });
  const unusedOnly = args.includes('--unused');
  if (args.includes('--json')) {
    console.log(JSON.stringify(table, null, 2));
  } else {
    let total = 0;
    let unused = 0;
    for (const entry of table) {
      const idle = entry.names.filter((row) => row.places.length === 0);
      total += entry.names.length;
      unused += idle.length;
      console.log(
        `\n${entry.entry}: ${entry.names.length} exports, ${idle.length} used nowhere outside ${entry.dir}`,
      );
      for (const row of entry.names) {
        if (unusedOnly && row.places.length > 0) continue;
        const where =
          row.places.length === 0
            ? '(nowhere outside)'
            : `${row.places.join(', ')}${row.testOnly ? ' (tests only)' : ''}`;
        console.log(`  ${row.name.padEnd(34)} ${where}`);
      }
    }
    console.log(
      `\n${total} exports across ${table.length} entry points; ${unused} used nowhere outside their package.`,
    );
  }
}
