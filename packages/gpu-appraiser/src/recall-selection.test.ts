import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  knownIntensity,
  type RecallCandidate,
  type RecallSelectionRequest,
  type RecallSelectionSettings,
  selectRecall,
} from './recall-selection.js';
import { wordOverlap } from './word-overlap.js';

const people = ['alice', 'bob', 'carol'];
const tasks = ['T-1', 'T-2'];
const vocabulary = ['build', 'payments', 'outage', 'fixed', 'late', 'keys'];
const scaled = fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null });

const appraisal = fc.record({
  assessmentId: fc.nat(),
  queueId: fc.nat(),
  relationshipId: fc.nat(),
  evidence: fc.constantFrom('fixed', 'late'),
  consequence: fc.integer({ min: 0, max: 4 }),
  confidence: scaled,
  benefit: scaled,
  harm: scaled,
  arousal: scaled,
  regardGain: scaled,
  regardLoss: scaled,
  trustGain: scaled,
  trustLoss: scaled,
  taskId: fc.option(fc.constantFrom(...tasks), { nil: null }),
});

// Results with no known scaled value are rare by chance: a third of them are made so on purpose,
// some with only task trust known (an intensity only in that task's context).
const result = fc.oneof(
  appraisal,
  appraisal.map((a) => ({
    ...a,
    benefit: null,
    harm: null,
    arousal: null,
    regardGain: null,
    regardLoss: null,
  })),
  appraisal.map((a) => ({
    ...a,
    benefit: null,
    harm: null,
    arousal: null,
    regardGain: null,
    regardLoss: null,
    trustGain: null,
    trustLoss: null,
  })),
);

const bank = fc
  .array(
    fc.record({
      owner: fc.constantFrom(...people),
      subject: fc.option(fc.constantFrom(...people), { nil: null }),
      taskId: fc.option(fc.constantFrom(...tasks), { nil: null }),
      words: fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 5 }),
      appraisal: fc.option(result, { nil: undefined }),
    }),
    { maxLength: 12 },
  )
  .map((rows) =>
    rows.map(
      (row, index): RecallCandidate => ({
        source: {
          id: index + 1,
          version: 1,
          actor: row.owner,
          subject: row.subject,
          text: row.words.join(' '),
          taskId: row.taskId,
        },
        ...(row.appraisal ? { appraisal: row.appraisal } : {}),
      }),
    ),
  );

const request: fc.Arbitrary<RecallSelectionRequest> = fc
  .record({
    words: fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 3 }),
    task: fc.option(fc.constantFrom(...tasks), { nil: undefined }),
    participant: fc.option(fc.constantFrom(...people), { nil: undefined }),
    priority: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }),
  })
  .map((r) => ({
    query: r.words.join(' '),
    ...(r.task === undefined ? {} : { task: r.task }),
    ...(r.participant === undefined ? {} : { participant: r.participant }),
    ...(r.priority === undefined ? {} : { appraisal: { priority: r.priority } }),
  }));

const settings: fc.Arbitrary<RecallSelectionSettings> = fc.record({
  recallDefaults: fc.boolean(),
  floor: fc.integer({ min: 0, max: 1_000_000 }),
  defaultPriority: fc.integer({ min: 0, max: 1_000_000 }),
});

const select = (
  c: readonly RecallCandidate[],
  r: RecallSelectionRequest,
  s: RecallSelectionSettings,
) => selectRecall(c, r, s, wordOverlap);
const byId = (candidates: readonly RecallCandidate[], id: number) =>
  candidates.find((candidate) => candidate.source.id === id) as RecallCandidate;

describe('recall selection rules (properties)', () => {
  it('with recall defaults off and no explicit controls, selects no appraisal and adds no priority', () => {
    fc.assert(
      fc.property(bank, request, settings, (candidates, asked, configured) => {
        const { appraisal: _explicit, ...plain } = asked;
        const selected = select(candidates, plain, { ...configured, recallDefaults: false });
        for (const entry of selected) {
          expect(entry.group.appraisal).toBeUndefined();
          expect(entry.score).toBe(entry.similarity);
        }
      }),
    );
  });

  it('a result with no known intensity adds no priority and no evidence group, whatever is asked', () => {
    fc.assert(
      fc.property(bank, request, settings, (candidates, asked, configured) => {
        for (const entry of select(candidates, asked, configured)) {
          const candidate = byId(candidates, entry.sourceId);
          if (knownIntensity(candidate.appraisal, asked.task) === undefined) {
            expect(entry.group.appraisal).toBeUndefined();
            expect(entry.score).toBe(entry.similarity);
          }
        }
      }),
    );
  });

  it('an explicit request uses its own priority on every result with a known intensity', () => {
    fc.assert(
      fc.property(
        bank,
        request,
        settings,
        fc.nat(1_000_000),
        (candidates, asked, configured, p) => {
          const explicit = { ...asked, appraisal: { priority: p } };
          for (const entry of select(candidates, explicit, configured)) {
            const candidate = byId(candidates, entry.sourceId);
            const known = knownIntensity(candidate.appraisal, asked.task) !== undefined;
            expect(entry.group.appraisal !== undefined).toBe(known);
            expect(entry.score).toBe(entry.similarity + (known ? p : 0));
          }
        },
      ),
    );
  });

  it('task and participant constraints filter; the floor applies before any priority', () => {
    fc.assert(
      fc.property(bank, request, settings, (candidates, asked, configured) => {
        const selected = select(candidates, asked, configured);
        const ids = new Set(selected.map((entry) => entry.sourceId));
        for (const candidate of candidates) {
          const { source } = candidate;
          const similar = wordOverlap(asked.query, source.text);
          const admitted =
            (asked.task === undefined || source.taskId === asked.task) &&
            (asked.participant === undefined ||
              source.subject === asked.participant ||
              source.actor === asked.participant) &&
            similar > 0 &&
            similar >= configured.floor;
          expect(ids.has(source.id)).toBe(admitted);
        }
        for (const entry of selected) {
          const trust = entry.group.appraisal?.taskTrust;
          if (trust) expect(trust.taskId).toBe(asked.task);
        }
      }),
    );
  });

  it('ranks by score, newest first on ties', () => {
    fc.assert(
      fc.property(bank, request, settings, (candidates, asked, configured) => {
        const selected = select(candidates, asked, configured);
        for (let i = 1; i < selected.length; i += 1) {
          const [a, b] = [selected[i - 1], selected[i]] as [
            (typeof selected)[0],
            (typeof selected)[0],
          ];
          expect(a.score > b.score || (a.score === b.score && a.sourceId > b.sourceId)).toBe(true);
        }
      }),
    );
  });
});
