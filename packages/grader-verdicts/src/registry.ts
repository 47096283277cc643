import type { Verdict } from './verdict.js';

/**
 * The leakage rungs, best first. L0: the answer key never reached the model (a hidden
 * reference, mutants of the true source, an enforced checker). L1: the model wrote both the
 * artefact and the judge. L2: an outside checker judges, but a forbidden shortcut satisfies it.
 */
export const rungs = ['L0', 'L1', 'L2'] as const;

/** One leakage rung. */
export type Rung = (typeof rungs)[number];

/** What a grader runs to judge, as far as the audit is concerned. */
export type Judge =
  | 'hidden-reference'
  | 'mutants-of-true-source'
  | 'model-written-file'
  | 'external-checker';

/** The shape of a grader kind's command: what judges, and which shortcuts it rejects itself. */
export interface GraderShape {
  readonly judge: Judge;
  /** Shortcuts that would satisfy the judge without the real work (`any`, `@ts-ignore`). */
  readonly forbiddenShortcuts: readonly string[];
  /** The forbidden shortcuts the grader rejects itself; the rest rest on a prompt's word. */
  readonly enforcedShortcuts: readonly string[];
}

/** What a grader declares: its kind, the rung it intends and the best verdict it hands out. */
export interface GraderDeclaration {
  readonly id: string;
  readonly kind: string;
  readonly intendedRung: Rung;
  readonly claims: Verdict;
  /** One line for a person: the task the grader judges. */
  readonly task: string;
}

const typeShortcuts = [
  'any',
  'as unknown as',
  '@ts-ignore',
  '@ts-expect-error',
  '@ts-nocheck',
  'tsconfig edit',
  '.d.ts edit',
] as const;

/**
 * Every grader kind the audit knows, by the shape of its command. Teaching the audit a new
 * kind is one entry here; a grader of an unknown kind fails the audit.
 */
export const graderKinds: Readonly<Record<string, GraderShape>> = {
  mutation: {
    judge: 'mutants-of-true-source',
    forbiddenShortcuts: ['a test that asserts nothing about behaviour'],
    enforcedShortcuts: ['a test that asserts nothing about behaviour'],
  },
  typecheck: {
    judge: 'external-checker',
    forbiddenShortcuts: typeShortcuts,
    enforcedShortcuts: typeShortcuts,
  },
  'hidden-reference': { judge: 'hidden-reference', forbiddenShortcuts: [], enforcedShortcuts: [] },
  // Two shapes kept so the audit can name them when someone wires one up again.
  'self-test': {
    judge: 'model-written-file',
    forbiddenShortcuts: ['a test that asserts nothing about behaviour'],
    enforcedShortcuts: [],
  },
  'bare-tsc': {
    judge: 'external-checker',
    forbiddenShortcuts: typeShortcuts,
    enforcedShortcuts: [],
  },
};

/** The rung a shape puts a grader on, whatever it declares. */
export function detectRung(shape: GraderShape): Rung {
  if (shape.judge === 'model-written-file') return 'L1';
  const unenforced = shape.forbiddenShortcuts.filter(
    (shortcut) => !shape.enforcedShortcuts.includes(shortcut),
  );
  return unenforced.length > 0 ? 'L2' : 'L0';
}

/**
 * The best verdict a rung can earn. L0 earns CORRECT; an L1 self-reference can only say the
 * work runs, which certifies nothing (ABSTAIN); an L2 escape hatch's pass may be a shortcut,
 * so the most it earns is UNSOUND.
 */
export function earnableVerdict(rung: Rung): Verdict {
  return rung === 'L0' ? 'CORRECT' : rung === 'L1' ? 'ABSTAIN' : 'UNSOUND';
}

/** One grader's line in the audit. */
export interface AuditFinding {
  readonly id: string;
  readonly kind: string;
  readonly intendedRung: Rung;
  /** Absent when the kind is unknown to the audit. */
  readonly detectedRung: Rung | null;
  readonly claims: Verdict;
  readonly earns: Verdict | null;
  readonly ok: boolean;
  readonly problems: readonly string[];
  /** Forbidden shortcuts left to a prompt's word. */
  readonly unenforced: readonly string[];
}

/** The audit of a registry: one finding per grader, and whether every one holds. */
export interface AuditReport {
  readonly ok: boolean;
  readonly findings: readonly AuditFinding[];
}

/**
 * Classifies each grader by the shape of its kind and fails when a grader claims CORRECT on a
 * rung that cannot earn it, when the detected rung is worse than the declared one (a silent
 * downgrade), or when its kind is unknown. An empty registry audits nothing: not ok.
 */
export function auditGraders(
  declarations: readonly GraderDeclaration[],
  kinds: Readonly<Record<string, GraderShape>> = graderKinds,
): AuditReport {
  const findings = declarations.map((declaration): AuditFinding => {
    const shape = Object.hasOwn(kinds, declaration.kind) ? kinds[declaration.kind] : undefined;
    if (shape === undefined) {
      return finding(declaration, null, null, [
        `unknown grader kind '${declaration.kind}': declare its shape in graderKinds before trusting it`,
      ]);
    }
    const detectedRung = detectRung(shape);
    const earns = earnableVerdict(detectedRung);
    const unenforced = shape.forbiddenShortcuts.filter((s) => !shape.enforcedShortcuts.includes(s));
    const problems: string[] = [];
    if (rungs.indexOf(detectedRung) > rungs.indexOf(declaration.intendedRung)) {
      problems.push(
        `declared ${declaration.intendedRung} but its command is ${detectedRung}: a silent downgrade`,
      );
    }
    if (declaration.claims === 'CORRECT' && earns !== 'CORRECT') {
      problems.push(`claims CORRECT but a ${detectedRung} grader earns at most ${earns}`);
    }
    return finding(declaration, detectedRung, earns, problems, unenforced);
  });
  return { ok: findings.length > 0 && findings.every((finding) => finding.ok), findings };
}

/** One grader's finding: it holds exactly when the audit found no problem with it. */
function finding(
  declaration: GraderDeclaration,
  detectedRung: Rung | null,
  earns: Verdict | null,
  problems: readonly string[],
  unenforced: readonly string[] = [],
): AuditFinding {
  return {
    ...pick(declaration),
    detectedRung,
    earns,
    ok: problems.length === 0,
    problems,
    unenforced,
  };
}

function pick(declaration: GraderDeclaration) {
  return {
    id: declaration.id,
    kind: declaration.kind,
    intendedRung: declaration.intendedRung,
    claims: declaration.claims,
  };
}
