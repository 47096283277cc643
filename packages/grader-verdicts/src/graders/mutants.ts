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
 * it: library files are parsed once and every new program reuses the previous one.
 */
export function sourceChecker(ts: typeof TS, file: string, text: string) {
  const options = compilerOptions(ts);
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
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  found.sort((left, right) => left.start - right.start || left.end - right.end);
  return found.map((mutant, id) => {
    const position = sourceFile.getLineAndCharacterOfPosition(mutant.start);
    return { ...mutant, id, line: position.line + 1, column: position.character + 1 };
  });
}
