import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GoalRef } from '../../schemas/goal-error.js';
import {
  type CorrectionSituation,
  contrastFor,
  type PlanningExample,
  verifiedByText,
} from './planning-examples.js';

const tools = ['fs_read', 'fs_write', 'shell', 'mail_send'];
const places = ['/w/a', '/w/b'];
const surfaces = ['cli', 'slack'] as const;
const goals: GoalRef[] = [
  { kind: 'task', id: 't-1' },
  { kind: 'task', id: 't-2' },
  { kind: 'charter', id: 'replies' },
];

function example(overrides: Partial<PlanningExample> = {}): PlanningExample {
  return {
    cite: { kind: 'closure', id: 'c-1' },
    kind: 'task_closed_done',
    session_id: 's-other',
    at: '2026-11-01T10:00:00.000Z',
    goal: { kind: 'task', id: 't-1' },
    situations: [{ workspace: '/w/a', surface: 'cli' }],
    tools: ['fs_read', 'shell'],
    trace: 'fs_read → shell',
    ...overrides,
  };
}

const exampleArbitrary: fc.Arbitrary<PlanningExample> = fc
  .record({
    session: fc.constantFrom('s-1', 's-2', 's-3', 's-4'),
    cite: fc.constantFrom('c-1', 'c-2', 'c-3'),
    day: fc.integer({ min: 1, max: 9 }),
    goal: fc.constantFrom(...goals),
    situations: fc.array(
      fc.record({ workspace: fc.constantFrom(...places), surface: fc.constantFrom(...surfaces) }),
      { minLength: 1, maxLength: 2 },
    ),
    tools: fc.subarray(tools),
  })
  .map(({ session, cite, day, goal, situations, tools: had }) =>
    example({
      session_id: session,
      cite: { kind: 'closure', id: cite },
      at: `2026-11-0${day}T10:00:00.000Z`,
      goal,
      situations,
      tools: [...had].sort(),
    }),
  );

const correctionArbitrary: fc.Arbitrary<CorrectionSituation> = fc.record(
  {
    sessionId: fc.constantFrom('s-1', 's-2', 's-3', 's-4'),
    workspace: fc.constantFrom(...places),
    surface: fc.constantFrom(...surfaces),
    goal: fc.constantFrom(...goals),
    tools: fc.subarray(tools, { maxLength: 2 }),
  },
  { requiredKeys: ['sessionId', 'tools'] },
);

const sameGoal = (a: GoalRef, b: GoalRef) => a.kind === b.kind && a.id === b.id;

/** Whether an example is one the correction may be shown, as the seed states the conditions. */
function eligible(candidate: PlanningExample, correction: CorrectionSituation): boolean {
  return (
    candidate.session_id !== correction.sessionId &&
    (correction.goal === undefined || sameGoal(candidate.goal, correction.goal)) &&
    candidate.situations.every(
      (where) =>
        (correction.workspace === undefined || where.workspace === correction.workspace) &&
        (correction.surface === undefined || where.surface === correction.surface),
    ) &&
    correction.tools.every((tool) => candidate.tools.includes(tool))
  );
}

describe('contrastFor', () => {
  it('picks the newest success from the same situation with every tool the correction was about', () => {
    const older = example({ session_id: 's-a', at: '2026-11-01T10:00:00.000Z' });
    const newer = example({
      session_id: 's-b',
      at: '2026-11-03T10:00:00.000Z',
      cite: { kind: 'closure', id: 'c-2' },
    });
    const chosen = contrastFor([older, newer], {
      sessionId: 's-x',
      workspace: '/w/a',
      surface: 'cli',
      goal: { kind: 'task', id: 't-1' },
      tools: ['shell'],
    });
    expect(chosen?.cite.id).toBe('c-2');
  });

  it('never lends a success from the correction’s own session', () => {
    const own = example({ session_id: 's-x', at: '2026-11-05T10:00:00.000Z' });
    expect(contrastFor([own], { sessionId: 's-x', tools: [] })).toBeUndefined();
  });

  it('lends none when the success lacks a tool the correction was about', () => {
    expect(contrastFor([example()], { sessionId: 's-x', tools: ['mail_send'] })).toBeUndefined();
  });

  it('lends none from another workspace, surface or goal the correction names', () => {
    const correction = { sessionId: 's-x', tools: [] };
    expect(contrastFor([example()], { ...correction, workspace: '/w/b' })).toBeUndefined();
    expect(contrastFor([example()], { ...correction, surface: 'slack' })).toBeUndefined();
    expect(
      contrastFor([example()], { ...correction, goal: { kind: 'task', id: 't-2' } }),
    ).toBeUndefined();
    expect(contrastFor([example()], correction)).toBeDefined();
  });

  it('says the verifying act in fixed words', () => {
    expect(verifiedByText(example())).toBe('closure c-1 closed as done');
    expect(verifiedByText({ cite: { kind: 'draft', id: 'd-9' } })).toBe('draft d-9 sent unchanged');
  });

  it('returns an eligible example, the newest of them, whatever the input order', () => {
    fc.assert(
      fc.property(
        fc.array(exampleArbitrary, { maxLength: 8 }),
        correctionArbitrary,
        fc.integer(),
        (examples, correction, seed) => {
          const chosen = contrastFor(examples, correction);
          const candidates = examples.filter((candidate) => eligible(candidate, correction));
          if (candidates.length === 0) {
            expect(chosen).toBeUndefined();
            return;
          }
          expect(chosen).toBeDefined();
          if (chosen === undefined) return;
          expect(eligible(chosen, correction)).toBe(true);
          const newest = Math.max(...candidates.map((candidate) => Date.parse(candidate.at)));
          expect(Date.parse(chosen.at)).toBe(newest);
          // The same choice from any order of the same examples.
          const shuffled = [...examples].sort(
            (a, b) => ((seed ^ a.cite.id.length) % 3) - ((seed ^ b.cite.id.length) % 3),
          );
          const again = contrastFor([...shuffled].reverse(), correction);
          expect(again?.session_id).toBe(chosen.session_id);
          expect(again?.cite.id).toBe(chosen.cite.id);
          expect(again?.at).toBe(chosen.at);
        },
      ),
    );
  });
});
