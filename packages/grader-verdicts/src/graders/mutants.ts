import { dirname, resolve } from 'node:path';
import type * as TS from 'typescript';

/** The mutation operators, each a way a real bug looks. */
export const mutationOperators = [
  'equality',
  'boundary',
  'boolean-literal',
  'arithmetic',
  'logical',
  'condition',
  'return-value',
  'string-empty',
  'unary-removal',
  'optional-chaining',
  'array-literal',
  'object-literal',
  'regex',
  'update',
  'assignment',
  'block-removal',
] as const;

/** One mutation operator's name. */
export type MutationOperator = (typeof mutationOperators)[number];

/** One mutant: a single edit at an AST node's span, and where it is for a person. */
export interface Mutant {
  readonly id: number;
  readonly operator: MutationOperator;
  readonly start: number;
  readonly end: number;
  readonly original: string;
  readonly replacement: string;
  readonly line: number;
  readonly column: number;
}

/** The mutated source text of one mutant. */
export function applyMutant(text: string, mutant: Mutant): string {
  return `${text.slice(0, mutant.start)}${mutant.replacement}${text.slice(mutant.end)}`;
}

/** `file:line:col operator 'original' → 'replacement'`, for evidence. */
export function describeMutant(file: string, mutant: Mutant): string {
  return `${file}:${mutant.line}:${mutant.column} ${mutant.operator} ${JSON.stringify(mutant.original)} → ${JSON.stringify(mutant.replacement)}`;
}

/** An array or object literal on the left of `=` (or inside one) is a destructuring target. */
function isAssignmentTarget(ts: typeof TS, node: TS.Node): boolean {
  let child: TS.Node = node;
  for (let up = node.parent; up !== undefined; child = up, up = up.parent) {
    if (ts.isBinaryExpression(up)) {
      return up.operatorToken.kind === ts.SyntaxKind.EqualsToken && up.left === child;
    }
    if ((ts.isForOfStatement(up) || ts.isForInStatement(up)) && up.initializer === child) {
      return true;
    }
    if (
      !ts.isArrayLiteralExpression(up) &&
      !ts.isObjectLiteralExpression(up) &&
      !ts.isPropertyAssignment(up) &&
      !ts.isShorthandPropertyAssignment(up) &&
      !ts.isSpreadElement(up) &&
      !ts.isSpreadAssignment(up)
    ) {
      return false;
    }
  }
  return false;
}

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

const flips: Readonly<Record<string, [MutationOperator, string]>> = {
  '===': ['equality', '!=='],
  '!==': ['equality', '==='],
  '==': ['equality', '!='],
  '!=': ['equality', '=='],
  '<': ['boundary', '<='],
  '<=': ['boundary', '<'],
  '>': ['boundary', '>='],
  '>=': ['boundary', '>'],
  '+': ['arithmetic', '-'],
  '-': ['arithmetic', '+'],
  '*': ['arithmetic', '/'],
  '/': ['arithmetic', '*'],
  '%': ['arithmetic', '*'],
  '&&': ['logical', '||'],
  '||': ['logical', '&&'],
  '??': ['logical', '&&'],
};

const assignments: Readonly<Record<string, string>> = {
  '+=': '-=',
  '-=': '+=',
  '*=': '/=',
  '/=': '*=',
  '%=': '*=',
  '<<=': '>>=',
  '>>=': '<<=',
  '&=': '|=',
  '|=': '&=',
  '&&=': '||=',
  '||=': '&&=',
  '??=': '&&=',
};

/**
 * The mutants of one regular expression literal, each a valid pattern: an anchor removed, a
 * character class or a predefined class negated, a quantifier removed (a subset of the
 * patterns Stryker's Regex mutator draws from weapon-regex).
 */
export function regexMutations(literal: string): string[] {
  const close = literal.lastIndexOf('/');
  const pattern = literal.slice(1, close);
  const flags = literal.slice(close + 1);
  const edits: string[] = [];
  if (pattern.startsWith('^')) edits.push(pattern.slice(1));
  if (pattern.endsWith('$') && !pattern.endsWith('\\$')) edits.push(pattern.slice(0, -1));
  const classAt = /(?<!\\)\[(?!\^)/.exec(pattern);
  if (classAt !== null) {
    edits.push(`${pattern.slice(0, classAt.index + 1)}^${pattern.slice(classAt.index + 1)}`);
  }
  const predefined = /\\[dws]/.exec(pattern);
  if (predefined !== null) {
    const upper = predefined[0].toUpperCase();
    edits.push(
      `${pattern.slice(0, predefined.index)}${upper}${pattern.slice(predefined.index + 2)}`,
    );
  }
  const quantifier = /(?<![\\(])[+*?](?!\?)/.exec(pattern);
  if (quantifier !== null && quantifier.index > 0) {
    edits.push(`${pattern.slice(0, quantifier.index)}${pattern.slice(quantifier.index + 1)}`);
  }
  return [...new Set(edits)]
    .filter((edit) => edit !== pattern && edit !== '')
    .filter((edit) => {
      try {
        new RegExp(edit, flags);
        return true;
      } catch {
        return false;
      }
    })
    .map((edit) => `/${edit}/${flags}`);
}

/**
 * Every mutant of a TypeScript source, found on its AST (never by matching text): operators,
 * literals, conditions, return values and unary operators, each as an edit of one node's span.
 * Nodes inside types, imports and exports' module names are left alone.
 */
export function findMutants(
  ts: typeof TS,
  sourceFile: TS.SourceFile,
  checker: TS.TypeChecker,
): Mutant[] {
  const text = sourceFile.text;
  const found: Omit<Mutant, 'id' | 'line' | 'column'>[] = [];
  const add = (operator: MutationOperator, node: TS.Node, replacement: string) => {
    const start = node.getStart(sourceFile);
    const end = node.getEnd();
    const original = text.slice(start, end);
    if (original !== replacement) found.push({ operator, start, end, original, replacement });
  };
  const isStringy = (node: TS.Expression) =>
    (checker.getTypeAtLocation(node).flags & ts.TypeFlags.StringLike) !== 0;

  const visit = (node: TS.Node): void => {
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      return;
    }
    if (ts.isBinaryExpression(node)) {
      const flip = flips[node.operatorToken.getText(sourceFile)];
      const concatenates =
        node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
        (isStringy(node.left) || isStringy(node.right));
      if (flip !== undefined && !concatenates) add(flip[0], node.operatorToken, flip[1]);
    }
    if (node.kind === ts.SyntaxKind.TrueKeyword) add('boolean-literal', node, 'false');
    if (node.kind === ts.SyntaxKind.FalseKeyword) add('boolean-literal', node, 'true');
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      node.text !== '' &&
      !(ts.isPropertyAssignment(node.parent) && node.parent.name === node) &&
      !ts.isExpressionStatement(node.parent) &&
      !ts.isLiteralTypeNode(node.parent)
    ) {
      add('string-empty', node, '""');
    }
    const condition =
      ts.isIfStatement(node) ||
      ts.isWhileStatement(node) ||
      ts.isDoStatement(node) ||
      ts.isConditionalExpression(node)
        ? node.kind === ts.SyntaxKind.ConditionalExpression
          ? (node as TS.ConditionalExpression).condition
          : (node as TS.IfStatement).expression
        : ts.isForStatement(node)
          ? node.condition
          : undefined;
    if (condition !== undefined) {
      add('condition', condition, 'true');
      add('condition', condition, 'false');
    }
    if (ts.isReturnStatement(node) && node.expression !== undefined) {
      const expression = node.expression;
      const type = checker.getTypeAtLocation(expression);
      const source = expression.getText(sourceFile);
      let replacement = 'undefined';
      if (type.flags & ts.TypeFlags.NumberLike) replacement = source === '0' ? '1' : '0';
      else if (type.flags & ts.TypeFlags.BooleanLike) replacement = `!(${source})`;
      else if (type.flags & ts.TypeFlags.StringLike) replacement = source === '""' ? '"x"' : '""';
      add('return-value', expression, replacement);
    }
    if (ts.isPrefixUnaryExpression(node)) {
      // -x → x, !x → x, ~x → x, ++x → x; a negative literal keeps its sign (that is a literal).
      if (!(node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand))) {
        add('unary-removal', node, node.operand.getText(sourceFile));
      }
    }
    if (ts.isPostfixUnaryExpression(node))
      add('unary-removal', node, node.operand.getText(sourceFile));
    const update =
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken ||
        node.operator === ts.SyntaxKind.MinusMinusToken);
    if (update) {
      const flipped = node.operator === ts.SyntaxKind.PlusPlusToken ? '--' : '++';
      const operand = node.operand.getText(sourceFile);
      add(
        'update',
        node,
        ts.isPrefixUnaryExpression(node) ? `${flipped}${operand}` : `${operand}${flipped}`,
      );
    }
    if (ts.isBinaryExpression(node)) {
      const flipped = assignments[node.operatorToken.getText(sourceFile)];
      const concatenates =
        node.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken &&
        (isStringy(node.left) || isStringy(node.right));
      if (flipped !== undefined && !concatenates) add('assignment', node.operatorToken, flipped);
    }
    if (
      (ts.isPropertyAccessExpression(node) ||
        ts.isElementAccessExpression(node) ||
        ts.isCallExpression(node)) &&
      node.questionDotToken !== undefined
    ) {
      add(
        'optional-chaining',
        node.questionDotToken,
        ts.isPropertyAccessExpression(node) ? '.' : '',
      );
    }
    if (ts.isArrayLiteralExpression(node) && !isAssignmentTarget(ts, node)) {
      add('array-literal', node, node.elements.length > 0 ? '[]' : '["mecha"]');
    }
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.length > 0 &&
      !isAssignmentTarget(ts, node)
    ) {
      add('object-literal', node, '{}');
    }
    if (ts.isRegularExpressionLiteral(node)) {
      for (const edit of regexMutations(node.text)) add('regex', node, edit);
    }
    if (ts.isBlock(node) && node.statements.length > 0) add('block-removal', node, '{}');
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  found.sort((left, right) => left.start - right.start || left.end - right.end);
  return found.map((mutant, id) => {
    const position = sourceFile.getLineAndCharacterOfPosition(mutant.start);
    return { ...mutant, id, line: position.line + 1, column: position.character + 1 };
  });
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

/**
 * Which function (or top-level statement) each mutant is in, by the start of that container:
 * the unit `compilingMutants` keeps removers apart in.
 */
export function mutantUnits(ts: typeof TS, sourceFile: TS.SourceFile): (mutant: Mutant) => number {
  const containers: { start: number; end: number }[] = [];
  const visit = (node: TS.Node, topLevel: boolean): void => {
    if (topLevel || ts.isFunctionLike(node)) {
      containers.push({ start: node.getStart(sourceFile), end: node.getEnd() });
    }
    ts.forEachChild(node, (child) => visit(child, false));
  };
  for (const statement of sourceFile.statements) visit(statement, true);
  return (mutant) => {
    let best = -1;
    let width = Number.POSITIVE_INFINITY;
    for (const container of containers) {
      const size = container.end - container.start;
      if (container.start <= mutant.start && mutant.end <= container.end && size < width) {
        best = container.start;
        width = size;
      }
    }
    return best;
  };
}
