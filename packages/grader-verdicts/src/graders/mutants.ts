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
  'case-removal',
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

/** What the mutant finders of one source share: the compiler, the file, and where to add. */
interface MutantSite {
  readonly ts: typeof TS;
  readonly sourceFile: TS.SourceFile;
  readonly checker: TS.TypeChecker;
  readonly add: (operator: MutationOperator, node: TS.Node, replacement: string) => void;
  /** Adds a mutant over a span that is not one node's (the statements of a `case`). */
  readonly addSpan: (
    operator: MutationOperator,
    start: number,
    end: number,
    replacement: string,
  ) => void;
  readonly isStringy: (node: TS.Expression) => boolean;
}

/** The mutants of a node's operators, literals, conditions and return value. */
function expressionMutants(at: MutantSite, node: TS.Node): void {
  const { ts, sourceFile, checker, add, isStringy } = at;
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
}

/** The mutants of a node's unary and update operators, assignments, optional chains, array and
 * object literals, regular expressions, blocks and `case` clauses. */
function structureMutants(at: MutantSite, node: TS.Node): void {
  const { ts, sourceFile, add, isStringy } = at;
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
    add('optional-chaining', node.questionDotToken, ts.isPropertyAccessExpression(node) ? '.' : '');
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
  // A `case` or `default` emptied, so it falls through to the next one (Stryker's switch-case
  // form of ConditionalExpression). A clause that is one braced block is left to block-removal:
  // both would be the same mutant, over the same span.
  if (ts.isCaseOrDefaultClause(node) && node.statements.length > 0) {
    const [first] = node.statements;
    const last = node.statements[node.statements.length - 1] as TS.Statement;
    if (!(node.statements.length === 1 && first !== undefined && ts.isBlock(first))) {
      at.addSpan('case-removal', (first as TS.Statement).getStart(sourceFile), last.getEnd(), '');
    }
  }
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
  const addSpan = (operator: MutationOperator, start: number, end: number, replacement: string) => {
    const original = text.slice(start, end);
    if (original !== replacement) found.push({ operator, start, end, original, replacement });
  };
  const add = (operator: MutationOperator, node: TS.Node, replacement: string) =>
    addSpan(operator, node.getStart(sourceFile), node.getEnd(), replacement);
  const isStringy = (node: TS.Expression) =>
    (checker.getTypeAtLocation(node).flags & ts.TypeFlags.StringLike) !== 0;

  const at: MutantSite = { ts, sourceFile, checker, add, addSpan, isStringy };
  const visit = (node: TS.Node): void => {
    if (ts.isTypeNode(node) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      return;
    }
    expressionMutants(at, node);
    structureMutants(at, node);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  found.sort((left, right) => left.start - right.start || left.end - right.end);
  return found.map((mutant, id) => {
    const position = sourceFile.getLineAndCharacterOfPosition(mutant.start);
    return { ...mutant, id, line: position.line + 1, column: position.character + 1 };
  });
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
