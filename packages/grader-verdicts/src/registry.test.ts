import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinGraders } from './graders/builtin.js';
import {
  auditGraders,
  detectRung,
  earnableVerdict,
  type GraderDeclaration,
  graderKinds,
  rungs,
} from './registry.js';
import { verdicts } from './verdict.js';

const declare = (overrides: Partial<GraderDeclaration>): GraderDeclaration => ({
  id: 'g',
  kind: 'mutation',
  intendedRung: 'L0',
  claims: 'CORRECT',
  task: 'a task',
  ...overrides,
});

describe('the leakage audit', () => {
  it('passes the graders mecha ships: all L0 and earning the CORRECT they claim', () => {
    const report = auditGraders(Object.values(builtinGraders).map((entry) => entry.declaration));
    expect(report.ok).toBe(true);
    expect(report.findings.map((finding) => [finding.id, finding.detectedRung])).toEqual([
      ['mutation', 'L0'],
      ['typecheck', 'L0'],
      ['hidden-reference', 'L0'],
    ]);
  });

  it('fails a self-test grader that claims CORRECT: the model wrote its own judge (L1)', () => {
    const report = auditGraders([
      declare({ id: 'add-test', kind: 'self-test', intendedRung: 'L1' }),
    ]);
    expect(report.ok).toBe(false);
    expect(report.findings[0]?.detectedRung).toBe('L1');
    expect(report.findings[0]?.problems).toEqual([
      'claims CORRECT but a L1 grader earns at most ABSTAIN',
    ]);
  });

  it('fails a bare tsc grader: its forbidden shortcuts rest on the prompt (L2)', () => {
    const report = auditGraders([
      declare({ id: 'fix-type', kind: 'bare-tsc', intendedRung: 'L2' }),
    ]);
    expect(report.findings[0]?.detectedRung).toBe('L2');
    expect(report.findings[0]?.unenforced).toContain('@ts-ignore');
    expect(report.ok).toBe(false);
  });

  it('catches a silent downgrade: declared L0, wired as a self-test', () => {
    const report = auditGraders([declare({ kind: 'self-test', claims: 'WRONG' })]);
    expect(report.ok).toBe(false);
    expect(report.findings[0]?.problems[0]).toContain('a silent downgrade');
  });

  it('refuses a grader kind it has not been taught, and learns one from a single entry', () => {
    const unknown = declare({ kind: 'llm-judge' });
    expect(auditGraders([unknown]).ok).toBe(false);
    const taught = {
      ...graderKinds,
      'llm-judge': {
        judge: 'model-written-file' as const,
        forbiddenShortcuts: [],
        enforcedShortcuts: [],
      },
    };
    const report = auditGraders([{ ...unknown, intendedRung: 'L1', claims: 'ABSTAIN' }], taught);
    expect(report.ok).toBe(true);
    expect(report.findings[0]?.detectedRung).toBe('L1');
  });

  it('audits nothing as a failure: an empty registry vouches for no grader', () => {
    expect(auditGraders([]).ok).toBe(false);
  });

  it('never lets a grader off the L0 rung pass while claiming CORRECT', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(graderKinds)),
        fc.constantFrom(...rungs),
        fc.constantFrom(...verdicts),
        (kind, intendedRung, claims) => {
          const finding = auditGraders([declare({ kind, intendedRung, claims })]).findings[0];
          const detected = detectRung(
            graderKinds[kind] as NonNullable<(typeof graderKinds)[string]>,
          );
          if (claims === 'CORRECT' && detected !== 'L0') expect(finding?.ok).toBe(false);
          if (rungs.indexOf(detected) > rungs.indexOf(intendedRung))
            expect(finding?.ok).toBe(false);
          expect(finding?.earns).toBe(earnableVerdict(detected));
        },
      ),
    );
  });
});
