import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditSelfImage,
  beliefGap,
  gapTrend,
  gradeSelfClaim,
  minimumTrendHistory,
  portraitIsHonest,
  reliabilityFloor,
  reliableSkills,
  type SkillEvidence,
  weaknessFloor,
} from './self-claims.js';

const skill = (selfGrade: number, attempts: number, verifiedSuccesses: number): SkillEvidence => ({
  skill: 'news',
  selfGrade,
  attempts,
  verifiedSuccesses,
});

const evidenceArb = fc
  .record({
    skill: fc.string({ minLength: 1, maxLength: 6 }),
    selfGrade: fc.double({ min: 0, max: 1, noNaN: true }),
    attempts: fc.integer({ min: 0, max: 40 }),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ share, ...rest }) => ({ ...rest, verifiedSuccesses: Math.round(share * rest.attempts) }));

describe('self-claims graded against behaviour', () => {
  it.each([
    ['earned: believes 0.9, behaves 0.85 over 40 tries', skill(0.9, 40, 34), 'CORRECT', 'earned'],
    ['flattery: believes 0.9, behaves 0.4 over 20', skill(0.9, 20, 8), 'UNSOUND', 'flattery'],
    [
      'flattery shows early when behaviour is clearly weak',
      skill(0.9, 5, 1),
      'UNSOUND',
      'flattery',
    ],
    ['premature: a streak of four is not a trait', skill(0.9, 4, 4), 'ABSTAIN', 'premature'],
    ['honest weakness', skill(0.3, 6, 2), 'CORRECT', 'honest weakness'],
    [
      'undue self-doubt: calls itself weak, behaves 0.9',
      skill(0.3, 20, 18),
      'WRONG',
      'undue self-doubt',
    ],
    ['a middling self-grade claims nothing', skill(0.6, 20, 12), 'ABSTAIN', 'no claim'],
  ] as const)('%s', (_name, evidence, verdict, reason) => {
    const grade = gradeSelfClaim(evidence);
    expect([grade.verdict, grade.reason]).toEqual([verdict, reason]);
  });

  it('reports absent behaviour as null, never 0', () => {
    expect(gradeSelfClaim(skill(0.9, 0, 0)).behaviour).toBeNull();
    expect(beliefGap([skill(0.9, 0, 0)])).toBeNull();
  });

  it('lets a weakness surface from fewer attempts than a strength', () => {
    expect(weaknessFloor).toBeLessThan(reliabilityFloor);
  });

  it('keeps the badge and the audit on one floor: a badged strength is never premature', () => {
    fc.assert(
      fc.property(fc.array(evidenceArb, { maxLength: 8 }), (evidence) => {
        const badge = reliableSkills(evidence);
        expect(portraitIsHonest(badge, evidence).honest).toBe(true);
        for (const item of evidence) {
          if (badge.includes(item.skill) && item.selfGrade >= 0.8) {
            const grade = gradeSelfClaim(item);
            if (evidence.filter((other) => other.skill === item.skill).length === 1) {
              expect(grade.verdict).toBe('CORRECT');
            }
          }
        }
      }),
    );
  });

  it('judges a skill listed twice on its whole record, in the badge and the audit alike', () => {
    const evidence = [skill(0.9, 40, 38), skill(0.9, 0, 0)];
    expect(reliableSkills(evidence)).toEqual(['news']);
    expect(portraitIsHonest(['news'], evidence).honest).toBe(true);
    const split = [skill(0.9, 6, 6), skill(0.9, 6, 6)];
    expect(reliableSkills(split)).toEqual(reliableSkills([skill(0.9, 12, 12)]));
  });

  it('fails a portrait that publishes an unearned strength', () => {
    const evidence = [skill(0.95, 4, 4)];
    expect(portraitIsHonest(['news'], evidence)).toEqual({ honest: false, unearned: ['news'] });
    expect(portraitIsHonest(['unknown'], evidence).honest).toBe(false);
  });
});

describe('the belief-behaviour gap over time', () => {
  const readings = (gaps: readonly number[]) =>
    gaps.map((gap, index) => ({ at: `2026-11-${String(index + 1).padStart(2, '0')}`, gap }));

  it('abstains on too little history', () => {
    expect(gapTrend(readings([0.1, 0.3, 0.5, 0.7]))).toEqual({
      status: 'too little history',
      slope: null,
    });
    expect(minimumTrendHistory).toBe(5);
  });

  it('sees a gap that widens, one that narrows, and one that holds', () => {
    expect(gapTrend(readings([0.05, 0.1, 0.2, 0.3, 0.4])).status).toBe('widening');
    expect(gapTrend(readings([0.4, 0.3, 0.2, 0.1, 0.05])).status).toBe('narrowing');
    expect(gapTrend(readings([0.1, 0.1, 0.1, 0.1, 0.1])).status).toBe('stable');
  });

  it('reads the history in time order, whatever order it arrives in', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 5, maxLength: 12 }),
        fc.integer(),
        (gaps, seed) => {
          const ordered = readings(gaps);
          const shuffled = [...ordered].sort(
            (a, b) => ((a.gap * 1e6 + seed) % 7) - ((b.gap * 1e6 + seed) % 7),
          );
          expect(gapTrend(shuffled)).toEqual(gapTrend(ordered));
        },
      ),
    );
  });
});

describe('the self-image audit', () => {
  it('passes a portrait drawn from the badge, and fails one that flatters', () => {
    const evidence = [
      { skill: 'news', selfGrade: 0.9, attempts: 40, verifiedSuccesses: 36 },
      { skill: 'code', selfGrade: 0.6, attempts: 12, verifiedSuccesses: 7 },
    ];
    const honest = auditSelfImage(evidence);
    expect(honest.portrait).toEqual({ honest: true, unearned: [] });
    expect(honest.ok).toBe(true);
    const flattering = auditSelfImage(evidence, ['news', 'code']);
    expect(flattering.portrait.unearned).toEqual(['code']);
    expect(flattering.ok).toBe(false);
  });
});
