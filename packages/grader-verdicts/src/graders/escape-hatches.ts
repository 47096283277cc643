import type * as TS from 'typescript';

/** One escape hatch found in a file: what it is and where. */
export interface EscapeHatch {
  readonly kind: 'any' | 'as unknown as' | '@ts-ignore' | '@ts-expect-error' | '@ts-nocheck';
  readonly line: number;
  readonly column: number;
}

const directive = /^\/[/*]+\s*@(ts-ignore|ts-expect-error|ts-nocheck)\b/;
const blockDirective = /^\/\*[\s*]*@(ts-ignore|ts-expect-error|ts-nocheck)\b/;

/**
 * The type-system mute buttons in one file, found on its syntax tree: `any` as a type,
 * `as unknown as` (and `<T><unknown>x`), and the `@ts-` suppression comments read from the
 * comment trivia between tokens, so a string that merely contains `@ts-ignore` is not one.
 */
export function findEscapeHatches(ts: typeof TS, sourceFile: TS.SourceFile): EscapeHatch[] {
  const text = sourceFile.text;
  const found: EscapeHatch[] = [];
  const at = (kind: EscapeHatch['kind'], position: number) => {
    const { line, character } = sourceFile.getLineAndCharacterOfPosition(position);
    found.push({ kind, line: line + 1, column: character + 1 });
  };
  const seenComments = new Set<number>();
  const comments = (position: number) => {
    for (const range of ts.getLeadingCommentRanges(text, position) ?? []) {
      if (seenComments.has(range.pos)) continue;
      seenComments.add(range.pos);
      const comment = text.slice(range.pos, range.end);
      const match = directive.exec(comment) ?? blockDirective.exec(comment);
      if (match !== null) at(`@${match[1]}` as EscapeHatch['kind'], range.pos);
    }
  };
  const isUnknown = (node: TS.TypeNode) => node.kind === ts.SyntaxKind.UnknownKeyword;
  const unwrap = (node: TS.Expression): TS.Expression =>
    ts.isParenthesizedExpression(node) ? unwrap(node.expression) : node;
  const visit = (node: TS.Node): void => {
    comments(node.pos);
    if (node.kind === ts.SyntaxKind.AnyKeyword) at('any', node.getStart(sourceFile));
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const inner = unwrap(node.expression);
      if (
        (ts.isAsExpression(inner) || ts.isTypeAssertionExpression(inner)) &&
        isUnknown(inner.type)
      ) {
        at('as unknown as', node.getStart(sourceFile));
      }
    }
    // getChildren includes the tokens, whose leading trivia holds every comment in the file.
    for (const child of node.getChildren(sourceFile)) visit(child);
  };
  visit(sourceFile);
  return found.sort((left, right) => left.line - right.line || left.column - right.column);
}
