import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditFindings, confirmFind, type Finding, gradeFind } from './find-verdict.js';

const findingArb: fc.Arbitrary<Finding> = fc.record(
  {
    id: fc.string({ minLength: 1, maxLength: 8 }),
    status: fc.constantFrom('confirmed', 'candidate', 'hypothesis', 'rejected'),
    tier: fc.constantFrom('commit', 'candidate', 'none'),
    livePass: fc.record({
      by: fc.constant('owner'),
      at: fc.constant('2026-11-30T10:00:00Z'),
      humanPresent: fc.boolean(),
    }),
  },
  { requiredKeys: ['id', 'status', 'tier'] },
);

describe('find verdicts', () => {
  it('replays the over-call: five candidates stamped confirmed are all UNSOUND', () => {
    const overCalls = Array.from({ length: 5 }, (_, index) => ({
      id: `find-${index}`,
      status: 'confirmed' as const,
      tier: 'candidate' as const,
    }));
    expect(auditFindings(overCalls).map((grade) => grade.verdict)).toEqual(
      Array(5).fill('UNSOUND'),
    );
    for (const finding of overCalls)
      expect(confirmFind({ ...finding, status: 'candidate' })._tag).toBe('Left');
  });

  it('earns confirmed from a commit-tier find or a human-present live pass, and abstains on pending', () => {
    expect(gradeFind({ id: 'a', status: 'confirmed', tier: 'commit' }).verdict).toBe('CORRECT');
    const live = { by: 'owner', at: '2026-11-30T10:00:00Z', humanPresent: true };
    expect(
      gradeFind({ id: 'b', status: 'confirmed', tier: 'candidate', livePass: live }).verdict,
    ).toBe('CORRECT');
    expect(
      gradeFind({
        id: 'c',
        status: 'confirmed',
        tier: 'candidate',
        livePass: { ...live, humanPresent: false },
      }).verdict,
    ).toBe('UNSOUND');
    expect(gradeFind({ id: 'd', status: 'candidate', tier: 'candidate' }).verdict).toBe('ABSTAIN');
  });

  it('can never write a confirmed that its grade would call UNSOUND', () => {
    fc.assert(
      fc.property(findingArb, (finding) => {
        const result = confirmFind(finding);
        if (result._tag === 'Right') {
          expect(result.right.status).toBe('confirmed');
          expect(gradeFind(result.right).verdict).toBe('CORRECT');
        } else {
          expect(gradeFind({ ...finding, status: 'confirmed' }).verdict).toBe('UNSOUND');
        }
      }),
    );
  });
});
