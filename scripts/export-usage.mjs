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
// A module loaded whole (`import * as x from '@mecha/p'`, `const x = await import('@mecha/p')`,
// `import('@mecha/p').then((x) => …)`, or a loader such as `export const load = () =>
// import('@mecha/p')` called in another file) counts the names read off it in that file (`x.name`,
// `x['name']`, `const { name } = x`); where the module escapes (passed on, returned, stored), or
// a dynamic import is bound to nothing the script can follow, it counts as a use of every name,
// and is listed as such.
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
export function importsIn(code, fileName = 'file.ts', { loaderOf } = {}) {
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
    while (
      ts.isAwaitExpression(node.parent) ||
      ts.isParenthesizedExpression(node.parent) ||
      ts.isAsExpression(node.parent) ||
      ts.isSatisfiesExpression(node.parent) ||
      ts.isNonNullExpression(node.parent)
    ) {
      node = node.parent;
    }
    const parent = node.parent;
    let target;
    if (parent && ts.isVariableDeclaration(parent)) target = parent.name;
    // `m = await import('x')`: the variable assigned is the module.
    if (
      parent &&
      ts.isBinaryExpression(parent) &&
      parent.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      parent.right === node
    ) {
      target = parent.left;
    }
    // `import('x').then((m) => …)`: the callback's parameter is the module.
    if (
      index === undefined &&
      parent &&
      ts.isPropertyAccessExpression(parent) &&
      parent.name.text === 'then' &&
      ts.isCallExpression(parent.parent) &&
      parent.parent.expression === parent
    ) {
      const callback = parent.parent.arguments[0];
      if (callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))) {
        target = callback.parameters[0]?.name;
        if (target === undefined) {
          touch(specifier);
          return;
        }
      }
    }
    if (target && index !== undefined) {
      target = ts.isArrayBindingPattern(target) ? target.elements[index] : undefined;
      target = target && ts.isBindingElement(target) ? target.name : undefined;
    } else if (
      target === undefined &&
      index === undefined &&
      parent &&
      ts.isPropertyAccessExpression(parent)
    ) {
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
        // A loader another file exports (`export const load = () => import('@mecha/x')`).
        if (loaderOf && specifier.startsWith('.') && bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            const loaded = loaderOf(specifier, (element.propertyName ?? element.name).text);
            if (loaded !== undefined) loaders.set(element.name.text, loaded);
          }
        }
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
  // Every mention of a module's binding is a read of one name (`ns.name`, `ns['name']`,
  // `const { name } = ns`, `ns.Type`) or the module escaping (passed on, returned, stored), which
  // counts as every name. Scopes are not followed: a same-named binding elsewhere in the file
  // counts too, which can only keep a name, never drop one.
  if (namespaces.size > 0) {
    const read = (node) => {
      if (ts.isIdentifier(node) && namespaces.has(node.text) && !isDeclarationName(node)) {
        readModule(node, namespaces.get(node.text), add);
      }
      ts.forEachChild(node, read);
    };
    read(source);
  }
  return found;
}

// Whether `node` names something being declared or a property key, rather than reading a binding.
function isDeclarationName(node) {
  const parent = node.parent;
  if (parent === undefined) return false;
  if (ts.isPropertyAccessExpression(parent)) return parent.name === node;
  if (ts.isQualifiedName(parent)) return parent.right === node;
  if (ts.isBinaryExpression(parent)) {
    return parent.left === node && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
  }
  if (ts.isShorthandPropertyAssignment(parent)) return false;
  if (ts.isExportSpecifier(parent)) return false;
  if (ts.isTypeQueryNode(parent) || ts.isTypeReferenceNode(parent)) return false;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isParameter(parent) ||
    ts.isPropertyAssignment(parent)
  ) {
    return parent.name === node;
  }
  if (ts.isBindingElement(parent)) return parent.name === node || parent.propertyName === node;
  return (
    ts.isNamespaceImport(parent) ||
    ts.isImportSpecifier(parent) ||
    ts.isImportClause(parent) ||
    ts.isFunctionDeclaration(parent) ||
    ts.isClassDeclaration(parent) ||
    ts.isMethodDeclaration(parent) ||
    ts.isPropertyDeclaration(parent) ||
    ts.isPropertySignature(parent) ||
    ts.isMethodSignature(parent) ||
    ts.isTypeAliasDeclaration(parent) ||
    ts.isInterfaceDeclaration(parent) ||
    ts.isEnumMember(parent) ||
    ts.isGetAccessor(parent) ||
    ts.isSetAccessor(parent) ||
    ts.isLabeledStatement(parent) ||
    ts.isJsxAttribute(parent)
  );
}

// What one mention of a module's binding reads off the module.
function readModule(node, specifier, add) {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
    add(specifier, parent.name.text);
  } else if (ts.isQualifiedName(parent) && parent.left === node) {
    add(specifier, parent.right.text);
  } else if (ts.isElementAccessExpression(parent) && parent.expression === node) {
    const key = parent.argumentExpression;
    add(specifier, ts.isStringLiteralLike(key) ? key.text : '*');
  } else if (
    ts.isVariableDeclaration(parent) &&
    parent.initializer === node &&
    ts.isObjectBindingPattern(parent.name)
  ) {
    for (const element of parent.name.elements) {
      const key = element.propertyName ?? element.name;
      add(specifier, ts.isIdentifier(key) ? key.text : '*');
    }
  } else {
    add(specifier, '*');
  }
}

/**
 * The loaders a module exports: `export const name = () => import('@mecha/x')` (or a function
 * that returns such an import), as a map from the exported name to the specifier.
 */
export function exportedLoaders(code, fileName = 'file.ts') {
  const loaders = new Map();
  if (!code.includes('import(')) return loaders;
  const source = ts.createSourceFile(
    fileName,
    code,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const imported = (expression) =>
    expression !== undefined &&
    ts.isCallExpression(expression) &&
    expression.expression.kind === ts.SyntaxKind.ImportKeyword &&
    expression.arguments[0] !== undefined &&
    ts.isStringLiteral(expression.arguments[0]) &&
    expression.arguments[0].text.startsWith('@mecha/')
      ? expression.arguments[0].text
      : undefined;
  const exported = (node) =>
    ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export ||
    (ts.isVariableDeclaration(node) &&
      ts.getCombinedModifierFlags(node.parent.parent) & ts.ModifierFlags.Export);
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        if (ts.isIdentifier(declaration.name) && value && ts.isArrowFunction(value)) {
          const specifier = imported(value.body);
          if (specifier !== undefined) loaders.set(declaration.name.text, specifier);
        }
      }
    } else if (ts.isFunctionDeclaration(statement) && statement.name && exported(statement)) {
      const [only] = statement.body?.statements ?? [];
      const specifier = only && ts.isReturnStatement(only) ? imported(only.expression) : undefined;
      if (specifier !== undefined) loaders.set(statement.name.text, specifier);
    }
  }
  return loaders;
}

// The file a relative import names, tried with the extensions TypeScript would try.
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.[cm]?js$/, '');
  for (const candidate of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.js`,
    `${stem}.mjs`,
    join(base, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Where a file sits, in words a reader recognises: `apps/cli`, `packages/stores`, `docs/x.md`. */
function placeOf(root, file) {
  const path = relative(root, file);
  const parts = path.split('/');
  // A package's README and examples are written for a harness author: they count as outside.
  if (parts[0] === 'packages' && (parts[2] === 'README.md' || parts[2] === 'examples')) {
    return parts.slice(0, 3).join('/');
  }
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
  const files = candidateFiles(root);
  // First the loaders each file exports, so a call of one in another file reads as an import.
  const loadersByFile = new Map();
  for (const file of files) {
    if (file.endsWith('.md')) continue;
    const loaders = exportedLoaders(readFileSync(file, 'utf8'), file);
    if (loaders.size > 0) loadersByFile.set(file, loaders);
  }
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const chunks = file.endsWith('.md') ? markdownBlocks(text) : [text];
    const isTest = /\.test(?:-d)?\.[cm]?[jt]sx?$|\/test\/|__fixtures__/.test(file);
    const loaderOf = (specifier, name) => {
      const target = resolveRelative(file, specifier);
      return target === undefined ? undefined : loadersByFile.get(target)?.get(name);
    };
    const loaderUser =
      !file.endsWith('.md') &&
      [...loadersByFile.values()].some((loaders) =>
        [...loaders.keys()].some((n) => text.includes(n)),
      );
    if (!text.includes('@mecha/') && !loaderUser) continue;
    for (const chunk of chunks) {
      const fileName = file.endsWith('.md') ? 'x.ts' : file;
      for (const [specifier, names] of importsIn(chunk, fileName, { loaderOf })) {
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
        const named = (byName.get(name) ?? []).filter((use) => use.place !== own);
        return {
          name,
          places,
          // Used outside only where the whole module escapes (counted as every name).
          wholeModuleOnly: outside.length > 0 && named.length === 0,
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
    let whole = 0;
    for (const entry of table) {
      const idle = entry.names.filter((row) => row.places.length === 0);
      const onlyWhole = entry.names.filter((row) => row.wholeModuleOnly).length;
      total += entry.names.length;
      unused += idle.length;
      whole += onlyWhole;
      const note = onlyWhole > 0 ? ` (${onlyWhole} more only through a whole-module use)` : '';
      console.log(
        `\n${entry.entry}: ${entry.names.length} exports, ${idle.length} used nowhere outside ${entry.dir}${note}`,
      );
      for (const row of entry.names) {
        if (unusedOnly && row.places.length > 0) continue;
        const where =
          row.places.length === 0
            ? '(nowhere outside)'
            : `${row.places.join(', ')}${row.testOnly ? ' (tests only)' : ''}${row.wholeModuleOnly ? ' (whole module only)' : ''}`;
        console.log(`  ${row.name.padEnd(34)} ${where}`);
      }
    }
    console.log(
      `\n${total} exports across ${table.length} entry points; ${unused} used nowhere outside their package${whole > 0 ? `, ${whole} more only through a whole-module use` : ''}.`,
    );
  }
}
