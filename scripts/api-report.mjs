// Writes or checks the API report of a package: every name its entry exports, with its kind,
// its first documentation line and its type signature, read with the TypeScript compiler
// from the sources (no build needed). The report is checked in as api/<name>.api.md; the
// package's api-report test compares it with the code, so adding, removing or retyping an
// export fails until the report is updated. From the repository root:
//
//   node scripts/api-report.mjs packages/stores           # check: exit 1 if stale
//   node scripts/api-report.mjs packages/stores --write   # update after a deliberate change
//
// With no folder it reads the current directory (a package script runs in its package).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));

const format =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrayAsGenericType;

function firstLine(symbol, checker) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  if (text === '') return '';
  // The first sentence, on one line.
  const flat = text.replace(/\s+/g, ' ');
  const end = flat.search(/\.(\s|$)/);
  return end < 0 ? flat : flat.slice(0, end + 1);
}

// A zod schema is shown by the types it reads and produces, not by zod's own generic structure.
function zodText(type, at, checker) {
  const internals = type.getProperty('_zod');
  if (internals === undefined) return undefined;
  const inner = checker.getTypeOfSymbolAtLocation(internals, at);
  const side = (name) => {
    const property = inner.getProperty(name);
    return property === undefined
      ? 'unknown'
      : checker.typeToString(checker.getTypeOfSymbolAtLocation(property, at), at, format);
  };
  const input = side('input');
  const output = side('output');
  return input === output ? `Schema<${output}>` : `Schema<input: ${input}, output: ${output}>`;
}

function valueText(type, at, checker) {
  const zod = zodText(type, at, checker);
  if (zod !== undefined) return zod;
  const properties = checker.getPropertiesOfType(type);
  const schemas = properties.map((property) =>
    zodText(checker.getTypeOfSymbolAtLocation(property, at), at, checker),
  );
  if (properties.length > 0 && schemas.every((text) => text !== undefined)) {
    const lines = properties.map((property, index) => `  ${property.name}: ${schemas[index]};`);
    return `{\n${lines.join('\n')}\n}`;
  }
  return checker.typeToString(type, at, format);
}

function objectShape(type, at, checker) {
  const lines = checker.getPropertiesOfType(type).map((property) => {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    const readonly =
      declaration !== undefined &&
      ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly
        ? 'readonly '
        : '';
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
    const propertyType = checker.getTypeOfSymbolAtLocation(property, at);
    return `  ${readonly}${property.name}${optional}: ${checker.typeToString(propertyType, at, format)};`;
  });
  for (const signature of type.getCallSignatures()) {
    lines.push(`  ${checker.signatureToString(signature, at, format)};`);
  }
  return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n}`;
}

function describe(symbol, checker) {
  const declaration = symbol.declarations?.[0];
  const parts = [];
  if (symbol.flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    for (const signature of type.getCallSignatures()) {
      parts.push(
        `function ${symbol.name}${checker.signatureToString(signature, declaration, format)}`,
      );
    }
  } else if (symbol.flags & ts.SymbolFlags.Variable) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    parts.push(`const ${symbol.name}: ${valueText(type, declaration, checker)}`);
  }
  if (symbol.flags & ts.SymbolFlags.Interface) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const name = checker.typeToString(type, declaration, format);
    parts.push(`interface ${name} ${objectShape(type, declaration, checker)}`);
  } else if (symbol.flags & ts.SymbolFlags.TypeAlias) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    const head = `type ${symbol.name}${
      declaration.typeParameters
        ? `<${declaration.typeParameters.map((p) => p.getText()).join(', ')}>`
        : ''
    }`;
    const expanded =
      type.flags & ts.TypeFlags.Object && !(type.flags & ts.TypeFlags.Union)
        ? objectShape(type, declaration, checker)
        : checker.typeToString(type, declaration, format | ts.TypeFormatFlags.InTypeAlias);
    parts.push(`${head} = ${expanded}`);
  }
  if (parts.length === 0)
    parts.push(`${ts.SymbolFlags[symbol.flags] ?? symbol.flags} ${symbol.name}`);
  return parts;
}

/**
 * The API report of the package at `packageDir`: its entry's exports, sorted, each with its
 * documentation line and signature; `undocumented` names those with no documentation.
 */
export function apiReport(packageDir, entry = 'src/index.ts') {
  const configPath = join(packageDir, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile).config;
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, packageDir);
  const entryPath = resolve(packageDir, entry);
  const program = ts.createProgram([entryPath], { ...parsed.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entryPath);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const packageName = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).name;
  const exported = checker
    .getExportsOfModule(moduleSymbol)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const undocumented = [];
  const sections = exported.map((exportSymbol) => {
    const symbol =
      exportSymbol.flags & ts.SymbolFlags.Alias
        ? checker.getAliasedSymbol(exportSymbol)
        : exportSymbol;
    const doc = firstLine(symbol, checker);
    if (doc === '') undocumented.push(exportSymbol.name);
    return [
      `## ${exportSymbol.name}`,
      '',
      doc === '' ? '(undocumented)' : doc,
      '',
      '```ts',
      ...describe(symbol, checker),
      '```',
    ].join('\n');
  });
  const text = [
    `# API report: ${packageName}`,
    '',
    'Generated by `scripts/api-report.mjs` (repository root) from the sources; do not edit by',
    'hand. A test fails when the code and this file differ: after a deliberate change to the',
    `public surface, run \`node scripts/api-report.mjs ${relative(repoRoot, packageDir)} --write\`.`,
    '',
    `${exported.length} exports.`,
    '',
    ...sections.map((section) => `${section}\n`),
  ].join('\n');
  return {
    text: sortLiteralUnions(text),
    names: exported.map((symbol) => symbol.name),
    undocumented,
  };
}

// The checker prints a union's members in the order it created their types, which depends on
// the order it happened to check the program in: the same enum can print as 'a' | 'b' in one
// run and 'b' | 'a' in the next. Runs of string literals are sorted so the report is stable.
const literalRun = /'(?:[^'\\]|\\.)*'(?: \| '(?:[^'\\]|\\.)*')+/g;

/** Sorts every run of string-literal union members in `text` (`'b' | 'a'` → `'a' | 'b'`). */
export function sortLiteralUnions(text) {
  return text.replace(literalRun, (run) => run.split(' | ').sort().join(' | '));
}

/** Where the report of the package at `packageDir` is checked in. */
export function reportPath(packageDir) {
  const name = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).name;
  return join(packageDir, 'api', `${basename(name)}.api.md`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const packageDir = resolve(process.argv.find((arg, i) => i > 1 && !arg.startsWith('--')) ?? '.');
  const { text, undocumented } = apiReport(packageDir);
  const path = reportPath(packageDir);
  if (process.argv.includes('--write')) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.error(`api-report: wrote ${path}`);
  } else {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {}
    if (current !== text) {
      console.error(`api-report: ${path} is stale; run with --write after a deliberate change`);
      process.exitCode = 1;
    }
  }
  if (undocumented.length > 0) {
    console.error(`api-report: undocumented exports: ${undocumented.join(', ')}`);
  }
}
