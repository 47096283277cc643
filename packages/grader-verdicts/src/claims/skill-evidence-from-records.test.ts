import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHome } from '@mecha/fixtures/home';
import { openHome } from '@mecha/stores';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { auditSelfImage, reliabilityFloor } from './self-claims.js';
import {
  type AppraisalRecords,
  readSkillEvidence,
  skillEvidenceFromRecords,
} from './skill-evidence-from-records.js';

const acts = ['released_unchanged', 'edited', 'rejected', 'closed', 'reopened', 'no_act'] as const;
const read = <T>(records: readonly T[]) => ({ state: 'read' as const, records });

function records(parts: Partial<AppraisalRecords>): AppraisalRecords {
  return {
    sessions: read([]),
    appraisals: read([]),
    scores: read([]),
    ownerOutcomes: read([]),
    ...parts,
  };
}

/** `n` web sessions with an appraisal expecting `expected` and a score saying `actual`. */
function webSessions(
  n: number,
  expected: (typeof acts)[number],
  actual: (i: number) => (typeof acts)[number],
  prefix = 'w',
) {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  return {
    sessions: ids.map((sessionId) => ({ sessionId, kind: 'ordinary', surface: 'web' })),
    appraisals: ids.map((session_id) => ({ session_id, taint: 'clean', expected_act: expected })),
    scores: ids.map((session_id, i) => ({
      appraisal_id: `a-${session_id}`,
      session_id,
      actual: actual(i),
    })),
  };
}

describe('self-claims from mecha’s own appraisal records', () => {
  it('grades a skill mecha believes in against what the owner did with its output', () => {
    // Fifteen web sessions: mecha expected every one to go out unchanged; the owner sent
    // fourteen unchanged and rejected one, and one sent draft later proved a confirmed error.
    const web = webSessions(15, 'released_unchanged', (i) =>
      i < 14 ? 'released_unchanged' : 'rejected',
    );
    const readout = skillEvidenceFromRecords(
      records({
        sessions: read(web.sessions),
        appraisals: read(web.appraisals),
        scores: read(web.scores),
        ownerOutcomes: read([{ session_id: 'w0', kind: 'confirmed_error' as const }]),
      }),
    );
    if ('unreadable' in readout) throw new Error('unreadable');
    expect(readout.skills).toEqual([
      { skill: 'web', selfGrade: 1, attempts: 15, verifiedSuccesses: 13 },
    ]);
    const [grade] = auditSelfImage(readout.skills).grades;
    expect(grade).toMatchObject({ verdict: 'CORRECT', reason: 'earned' });
  });

  it('calls it flattery when the owner keeps rejecting what mecha expects to go out', () => {
    const web = webSessions(reliabilityFloor, 'released_unchanged', (i) =>
      i < 3 ? 'released_unchanged' : 'edited',
    );
    const readout = skillEvidenceFromRecords(
      records({
        sessions: read(web.sessions),
        appraisals: read(web.appraisals),
        scores: read(web.scores),
      }),
    );
    if ('unreadable' in readout) throw new Error('unreadable');
    expect(auditSelfImage(readout.skills).grades[0]).toMatchObject({
      verdict: 'UNSOUND',
      reason: 'flattery',
      attempts: reliabilityFloor,
    });
  });

  it('keeps tainted appraisals, hidden sessions and unknown kinds out of every skill', () => {
    const readout = skillEvidenceFromRecords(
      records({
        sessions: read([
          { sessionId: 'dev', kind: 'test', surface: 'cli' },
          { sessionId: 'headless' },
          { sessionId: 'slack-1', kind: 'ordinary', surface: 'slack' },
        ]),
        appraisals: read([
          { session_id: 'dev', taint: 'clean', expected_act: 'closed' as const },
          { session_id: 'headless', taint: 'clean', expected_act: 'closed' as const },
          { session_id: 'gone', taint: 'clean', expected_act: 'closed' as const },
          { session_id: 'slack-1', taint: 'third_party', expected_act: 'closed' as const },
          { session_id: 'slack-1', taint: 'clean', expected_act: 'no_act' as const },
        ]),
        scores: read([
          { appraisal_id: 'a1', session_id: 'slack-1', actual: 'closed' as const },
          { appraisal_id: 'a1', session_id: 'slack-1', actual: 'rejected' as const },
          { appraisal_id: 'a2', session_id: 'slack-1', actual: 'no_act' as const },
        ]),
      }),
    );
    expect(readout).toEqual({
      skills: [],
      // Behaviour without a belief claims nothing; the repeated score counts once.
      withoutBelief: [{ skill: 'slack', attempts: 1, verifiedSuccesses: 1 }],
      notClean: 1,
      hidden: 1,
      unattributed: 2,
      partial: false,
    });
  });

  it('grades nothing when a store cannot be read: absent is not zero', () => {
    expect(
      skillEvidenceFromRecords(
        records({
          scores: { state: 'unreadable', reason: 'gone' },
          ownerOutcomes: { state: 'unreadable', reason: 'x' },
        }),
      ),
    ).toEqual({ unreadable: ['scores', 'ownerOutcomes'] });
  });

  it('never counts more successes than attempts, and ignores the order of the records', () => {
    const sessionIds = ['s0', 's1', 's2', 's3', 's4', 's5'];
    const arbitrary = fc.record({
      sessions: fc.uniqueArray(
        fc.record({
          sessionId: fc.constantFrom(...sessionIds),
          kind: fc.constantFrom('ordinary', 'test', 'experiment', undefined),
          surface: fc.constantFrom('web', 'task', 'slack', undefined),
        }),
        { selector: (session) => session.sessionId },
      ),
      appraisals: fc.array(
        fc.record({
          session_id: fc.constantFrom(...sessionIds),
          taint: fc.constantFrom('clean', 'third_party', 'unknown'),
          expected_act: fc.constantFrom(...acts, undefined),
        }),
      ),
      scores: fc.uniqueArray(
        fc.record({
          appraisal_id: fc.string({ minLength: 1, maxLength: 4 }),
          session_id: fc.constantFrom(...sessionIds),
          actual: fc.constantFrom(...acts),
        }),
        { selector: (score) => score.appraisal_id },
      ),
      ownerOutcomes: fc.array(
        fc.record({
          session_id: fc.constantFrom(...sessionIds),
          kind: fc.constantFrom(
            'fine' as const,
            'confirmed_error' as const,
            'adverse_impact' as const,
          ),
        }),
      ),
    });
    fc.assert(
      fc.property(arbitrary, fc.integer(), (parts, seed) => {
        const readout = skillEvidenceFromRecords({
          sessions: read(parts.sessions),
          appraisals: read(parts.appraisals),
          scores: read(parts.scores),
          ownerOutcomes: read(parts.ownerOutcomes),
        });
        if ('unreadable' in readout) return false;
        const all = [...readout.skills, ...readout.withoutBelief];
        const judged = parts.scores.filter((score) => score.actual !== 'no_act').length;
        expect(all.reduce((sum, skill) => sum + skill.attempts, 0)).toBeLessThanOrEqual(judged);
        for (const skill of all)
          expect(skill.verifiedSuccesses).toBeLessThanOrEqual(skill.attempts);
        for (const skill of readout.skills) {
          expect(skill.selfGrade).toBeGreaterThanOrEqual(0);
          expect(skill.selfGrade).toBeLessThanOrEqual(1);
        }
        const shuffled = <T>(list: readonly T[]) =>
          [...list].sort(
            (a, b) =>
              ((JSON.stringify(a).length * 31 + seed) % 7) -
              ((JSON.stringify(b).length * 31 + seed) % 7),
          );
        expect(
          skillEvidenceFromRecords({
            sessions: read(shuffled(parts.sessions)),
            appraisals: read(shuffled(parts.appraisals)),
            scores: read(shuffled(parts.scores)),
            ownerOutcomes: read(shuffled(parts.ownerOutcomes)),
          }),
        ).toEqual(readout);
        return true;
      }),
      { numRuns: 200 },
    );
  });
});

describe('self-claims read from a real home', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const home = () => {
    const parent = mkdtempSync(join(tmpdir(), 'mecha-claims-home-'));
    dirs.push(parent);
    const path = join(parent, 'home');
    generateHome({ path, seed: 'claims', sessions: 600, tornRate: 0 });
    return path;
  };

  it('credits the generated home’s scored appraisals to the kinds its sessions ran under', async () => {
    const path = home();
    const readout = await readSkillEvidence(openHome(path));
    if ('unreadable' in readout) throw new Error('unreadable');
    const scores = await openHome(path).appraisals.scores.read();
    const judged =
      scores.state === 'unreadable' ? [] : scores.records.filter((s) => s.actual !== 'no_act');
    const credited = [...readout.skills, ...readout.withoutBelief].reduce(
      (sum, s) => sum + s.attempts,
      0,
    );
    expect(judged.length).toBeGreaterThan(0);
    expect(credited).toBeGreaterThan(0);
    expect(credited).toBeLessThanOrEqual(judged.length);
    expect(readout.skills.map((skill) => skill.skill)).toEqual(
      [...readout.skills.map((skill) => skill.skill)].sort(),
    );
    // Every skill is a kind the home's sessions were recorded under.
    const listing = await openHome(path).sessions.list();
    const surfaces = new Set(
      listing.state === 'unreadable' ? [] : listing.records.map((s) => s.surface),
    );
    for (const skill of readout.skills) expect(surfaces.has(skill.skill)).toBe(true);
    expect(auditSelfImage(readout.skills).grades).toHaveLength(readout.skills.length);
  });

  it('grades nothing when the scores store has vanished', async () => {
    const path = home();
    unlinkSync(join(path, 'appraisals', 'scores.jsonl'));
    expect(await readSkillEvidence(openHome(path))).toEqual({ unreadable: ['scores'] });
  });
});
