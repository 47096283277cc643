import type * as TS from 'typescript';
import type { Mutant } from './mutants.js';

/**
 * All mutants of one file compiled into one module: each mutated expression becomes
 * `(__mecha$.a(ids) === id ? (mutated) : … : (original))`, so which mutant is live is a number
 * set at run time (`__mecha$.id`, −1 for none), and the module is loaded and type-checked once
 * instead of once per mutant. `a(ids)` also records which mutants a test reaches (per-test
 * coverage). Loop bodies and function bodies start with `__mecha$.t()`, a hit counter that
 * throws past a bound (`__mecha$.limit`) set from the baseline's counts: a mutant that never
 * ends a loop is killed in about the baseline's time instead of at a timeout.
 */
export interface SwitchedModule {
  /** The instrumented TypeScript text (transpile it; it is never type-checked). */
  readonly text: string;
  /** Mutants a switch could not be placed for (counted with the skipped ones). */
  readonly unswitchable: readonly number[];
}

/**
 * The runtime the instrumented module needs, created once per process: by the warm worker's
 * test shim, or here when the module runs in a plain `node --test` process (then the live
 * mutant and the guard's bound come from MECHA_MUTANT and MECHA_GUARD, and the hits of the
 * run are written to MECHA_COUNTS at exit). The shape must match the shim's.
 */
const header = [
  'const __mecha$: any = ((globalThis as any).__mechaSwitch ??= (() => {',
  '  const proc = (globalThis as any).process;',
  '  const env = proc?.env ?? {};',
  '  const s: any = { id: Number(env.MECHA_MUTANT ?? -1), limit: Number(env.MECHA_GUARD ?? Infinity),',
  '    hits: 0, tripped: false, cov: null,',
  '    a(...ids: number[]) { if (s.cov !== null) for (const i of ids) s.cov.add(i); return s.id; },',
  "    t() { s.hits += 1; if (s.hits > s.limit) { s.tripped = true; throw new RangeError('mecha: loop guard tripped'); } } };",
  "  if (env.MECHA_COUNTS) proc.on('exit', () => proc.getBuiltinModule('node:fs').writeFileSync(env.MECHA_COUNTS, String(s.hits)));",
  '  return s;',
  '})());',
  '',
].join('\n');

interface Switch {
  readonly start: number;
  readonly end: number;
  readonly kind: 'expression' | 'block' | 'statements';
  readonly statementStart: boolean;
  readonly mutants: Mutant[];
}

const tick = '__mecha$.t();';

/** The deepest node whose span holds [start, end). */
function deepest(ts: typeof TS, sourceFile: TS.SourceFile, start: number, end: number): TS.Node {
  let found: TS.Node = sourceFile;
  const visit = (node: TS.Node): void => {
    if (node.getStart(sourceFile) <= start && end <= node.getEnd()) {
      found = node;
      ts.forEachChild(node, visit);
    }
  };
  ts.forEachChild(sourceFile, visit);
  return found;
}

/** Whether an expression can be replaced by a parenthesised conditional without changing meaning. */
function wrappable(ts: typeof TS, node: TS.Node): boolean {
  if (!ts.isExpression(node) || ts.isSpreadElement(node) || ts.isOmittedExpression(node)) {
    return false;
  }
  if (node.kind === ts.SyntaxKind.SuperKeyword) return false;
  const parent = node.parent;
  if (ts.isBinaryExpression(parent) && parent.left === node) {
    const kind = parent.operatorToken.kind;
    if (kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment) return false;
  }
  if (
    (ts.isPrefixUnaryExpression(parent) || ts.isPostfixUnaryExpression(parent)) &&
    (parent.operator === ts.SyntaxKind.PlusPlusToken ||
      parent.operator === ts.SyntaxKind.MinusMinusToken)
  ) {
    return false;
  }
  if (ts.isDeleteExpression(parent)) return false;
  // A callee keeps its `this`, a tag its template, an optional chain its short circuit.
  if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression === node) {
    return false;
  }
  if (ts.isTaggedTemplateExpression(parent)) return false;
  if (
    (ts.isPropertyAccessExpression(parent) ||
      ts.isElementAccessExpression(parent) ||
      ts.isNonNullExpression(parent)) &&
    parent.expression === node &&
    (ts.isOptionalChain(parent) || ts.isOptionalChain(node))
  ) {
    return false;
  }
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false;
  if (ts.isShorthandPropertyAssignment(parent) || ts.isEnumMember(parent)) return false;
  if ((ts.isForOfStatement(parent) || ts.isForInStatement(parent)) && parent.initializer === node) {
    return false;
  }
  if (ts.isDecorator(parent) || ts.isExpressionWithTypeArguments(parent)) return false;
  // Inside a destructuring target every element is a place to assign to.
  for (let up: TS.Node = parent; !ts.isStatement(up) && !ts.isSourceFile(up); up = up.parent) {
    if (
      ts.isBinaryExpression(up.parent) &&
      up.parent.left === up &&
      up.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      (ts.isArrayLiteralExpression(up) || ts.isObjectLiteralExpression(up))
    ) {
      return false;
    }
  }
  return true;
}

function stops(ts: typeof TS, node: TS.Node): boolean {
  return (
    ts.isStatement(node) ||
    ts.isBlock(node) ||
    ts.isSourceFile(node) ||
    ts.isFunctionLike(node) ||
    ts.isClassElement(node) ||
    ts.isVariableDeclaration(node) ||
    ts.isParameter(node) ||
    ts.isCaseClause(node) ||
    ts.isCatchClause(node)
  );
}

/** Where a mutant's switch goes: the nearest expression that can be wrapped, or its block. */
function placeSwitch(
  ts: typeof TS,
  sourceFile: TS.SourceFile,
  mutant: Mutant,
): Omit<Switch, 'mutants'> | undefined {
  const start = mutant.start;
  const end = mutant.end;
  let node = deepest(ts, sourceFile, start, end);
  if (mutant.operator === 'block-removal') {
    return ts.isBlock(node) && node.getStart(sourceFile) === start
      ? { start, end, kind: 'block', statementStart: false }
      : undefined;
  }
  if (mutant.operator === 'case-removal') {
    // The statements of one clause: wrapped in a block that the mutant skips (a \`break\` in it
    // still leaves the switch, and a skipped clause falls through as the emptied one does).
    let clause: TS.Node = node;
    while (!ts.isCaseOrDefaultClause(clause) && !ts.isSourceFile(clause)) clause = clause.parent;
    const statements = ts.isCaseOrDefaultClause(clause) ? clause.statements : undefined;
    const whole =
      statements?.[0]?.getStart(sourceFile) === start && statements.at(-1)?.getEnd() === end;
    return whole ? { start, end, kind: 'statements', statementStart: false } : undefined;
  }
  for (;;) {
    if (wrappable(ts, node)) {
      const nodeStart = node.getStart(sourceFile);
      let statementStart = false;
      for (let up: TS.Node = node; !ts.isSourceFile(up); up = up.parent) {
        if (up.getStart(sourceFile) !== nodeStart) break;
        // A statement in a list may follow one that ends without a semicolon, so its switch
        // starts with one; the body of an \`if\`, \`else\` or loop follows \`)\`, \`else\` or \`do\`,
        // where a semicolon would end the body early (and orphan an \`else\`).
        if (ts.isExpressionStatement(up)) {
          statementStart =
            ts.isBlock(up.parent) ||
            ts.isSourceFile(up.parent) ||
            ts.isCaseOrDefaultClause(up.parent) ||
            ts.isModuleBlock(up.parent);
        }
      }
      return { start: nodeStart, end: node.getEnd(), kind: 'expression', statementStart };
    }
    if (stops(ts, node)) return undefined;
    node = node.parent;
  }
}

/** Where the hit counter goes: the start of every loop body and function body. */
function guardPoints(ts: typeof TS, sourceFile: TS.SourceFile): Map<number, string> {
  const points = new Map<number, string>();
  const atBody = (body: TS.Node | undefined) => {
    if (body === undefined) return;
    if (ts.isBlock(body)) points.set(body.getStart(sourceFile) + 1, ` ${tick}`);
  };
  const visit = (node: TS.Node): void => {
    if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) {
      return;
    }
    if (ts.isIterationStatement(node, false)) {
      const body = node.statement;
      if (ts.isBlock(body)) atBody(body);
      else {
        // A loop body that is one statement becomes a block that counts first.
        points.set(body.getStart(sourceFile), `{ ${tick} `);
        points.set(body.getEnd(), ' }');
      }
    }
    if (ts.isFunctionLike(node) && 'body' in node) atBody(node.body as TS.Node | undefined);
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(sourceFile, visit);
  return points;
}

/**
 * Compiles every mutant of a source into one module. `sourceFile` is the source's syntax tree,
 * `mutants` were found on it.
 */
export function switchMutants(
  ts: typeof TS,
  sourceFile: TS.SourceFile,
  mutants: readonly Mutant[],
): SwitchedModule {
  const text = sourceFile.text;
  const switches = new Map<string, Switch>();
  const unswitchable: number[] = [];
  for (const mutant of mutants) {
    const place = placeSwitch(ts, sourceFile, mutant);
    if (place === undefined) {
      unswitchable.push(mutant.id);
      continue;
    }
    const key = `${place.kind}:${place.start}:${place.end}`;
    const existing = switches.get(key);
    if (existing === undefined) switches.set(key, { ...place, mutants: [mutant] });
    else existing.mutants.push(mutant);
  }
  const ordered = [...switches.values()].sort((a, b) => a.start - b.start || b.end - a.end);
  const inserts = guardPoints(ts, sourceFile);

  /**
   * The text of [start, end): guard points strictly inside it, and either the switches inside
   * it (the original branch) or one mutant's replacement (a mutated branch).
   */
  const emit = (start: number, end: number, replace?: Mutant, skip = -1): string => {
    type Event =
      | { pos: number; order: 0; insert: string }
      | { pos: number; order: 1; at: Switch }
      | { pos: number; order: 2; mutant: Mutant };
    const events: Event[] = [];
    for (const [pos, insert] of inserts) {
      if (pos > start && pos < end && pos !== skip) events.push({ pos, order: 0, insert });
    }
    if (replace === undefined) {
      for (const at of ordered) {
        if (at.start >= start && at.end <= end && !(at.start === start && at.end === end)) {
          events.push({ pos: at.start, order: 1, at });
        }
      }
    } else {
      events.push({ pos: replace.start, order: 2, mutant: replace });
    }
    events.sort((a, b) => a.pos - b.pos || a.order - b.order);
    let out = '';
    let cursor = start;
    for (const event of events) {
      if (event.pos < cursor) continue;
      out += text.slice(cursor, event.pos);
      cursor = event.pos;
      if (event.order === 0) out += event.insert;
      else if (event.order === 1) {
        out += render(event.at);
        cursor = event.at.end;
      } else {
        out += event.mutant.replacement;
        cursor = event.mutant.end;
      }
    }
    return out + text.slice(cursor, end);
  };

  const render = (at: Switch): string => {
    const ids = at.mutants.map((mutant) => mutant.id);
    if (at.kind === 'block') {
      // The block's own hit counter moves before the switch: an emptied loop body still counts.
      const mutant = at.mutants[0] as Mutant;
      const guard = inserts.has(at.start + 1) ? ` ${tick}` : '';
      const original = emit(at.start, at.end, undefined, at.start + 1);
      return `{${guard} if (__mecha$.a(${mutant.id}) === ${mutant.id}) ${emit(at.start, at.end, mutant)} else ${original} }`;
    }
    if (at.kind === 'statements') {
      const mutant = at.mutants[0] as Mutant;
      return `if (__mecha$.a(${mutant.id}) === ${mutant.id}) {} else { ${emit(at.start, at.end)} }`;
    }
    const original = emit(at.start, at.end);
    const branches = at.mutants.map(
      (mutant, index) =>
        `${index === 0 ? `__mecha$.a(${ids.join(', ')})` : '__mecha$.id'} === ${mutant.id} ? (${emit(at.start, at.end, mutant)}) : `,
    );
    return `${at.statementStart ? ';' : ''}(${branches.join('')}(${original}))`;
  };

  return { text: `${header}${emit(0, text.length)}`, unswitchable };
}
