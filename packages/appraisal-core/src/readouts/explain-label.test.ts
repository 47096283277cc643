import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { records, sessionShapeArbitrary } from '../__fixtures__/evidence-arbitraries.js';
import {
  compaction,
  counter,
  end,
  evidence,
  outcome,
  staged,
  start,
} from '../__fixtures__/evidence-builders.js';
import { labelRules } from '../rules/derive-label.js';
import { appraiseRun } from './appraise-run.js';
import { entryText, explainLabel } from './explain-label.js';
import { readSession } from './read-session.js';

const noCharter = { state: 'read', records: [] } as const;

describe('explainLabel', () => {
  it('names the rule that fired and the rejected draft it read', () => {
    const session = evidence({ outbox: [staged('d-1'), outcome('d-1', 'rejected')] });
    const reason = explainLabel(readSession(session, noCharter));
    expect(reason.label).toBe('distress');
    expect(reason.rule).toBe('distress');
    expect(reason.entries.map((entry) => entry.row)).toEqual(['draftRejected']);
    expect(reason.sentence).toBe(
      'Distress because a negative outcome that no probe has explained: a message draft the owner rejected (\u22121.0, draft d-1).',
    );
  });

  it('reads only the dominant negatives, never a smaller one or a positive', () => {
    const session = evidence({
      transcript: [start('r-1', 0), counter('r-1', 'loop_stop'), end('r-1', 'loop', 1)],
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')],
    });
    const reason = explainLabel(readSession(session, noCharter));
    expect(reason.entries.every((entry) => entry.error.sign < 0)).toBe(true);
    expect(reason.sentence).toContain('counter loop_stop');
    expect(reason.sentence).not.toContain('draft d-1');
  });

  it('reads no entry for a compacted run, and says why it is neutral', () => {
    const run = [
      start('r-1', 0),
      compaction('r-1', 3, 0.5),
      counter('r-1', 'loop_stop'),
      end('r-1', 'loop', 1),
    ];
    const reason = explainLabel(appraiseRun(run));
    expect(reason.rule).toBe('compacted');
    expect(reason.entries).toEqual([]);
    expect(reason.sentence).toBe(
      'Neutral because a run compacted, so its steers cannot be scoped and the label stays neutral.',
    );
  });

  it('says how many more entries it read beyond the first three', () => {
    const drafts = ['d-1', 'd-2', 'd-3', 'd-4', 'd-5'];
    const session = evidence({
      outbox: drafts.flatMap((id) => [staged(id), outcome(id, 'rejected')]),
    });
    const reason = explainLabel(readSession(session, noCharter));
    expect(reason.entries).toHaveLength(5);
    expect(reason.sentence).toMatch(/draft d-3\), and 2 more\.$/);
  });

  it('agrees with the label of every generated session, from entries the session holds', () => {
    fc.assert(
      fc.property(sessionShapeArbitrary, fc.boolean(), (shape, withOutcomes) => {
        const reading = readSession(records(shape, withOutcomes), noCharter);
        const reason = explainLabel(reading);
        expect(reason.label).toBe(reading.label);
        const rule = labelRules.find((candidate) => candidate.id === reason.rule);
        expect(rule?.label).toBe(reading.label);
        for (const entry of reason.entries) expect(reading.entries).toContain(entry);
        const negatives = reading.errors.filter((error) => error.sign < 0);
        if (negatives.length > 0 && reason.entries.length > 0) {
          const largest = Math.max(...negatives.map((error) => -error.sign));
          for (const entry of reason.entries) expect(-entry.error.sign).toBe(largest);
        }
        if (reason.rule === 'compacted' || reason.rule === 'irrelevant') {
          expect(reason.entries).toEqual([]);
        }
        expect(reason.sentence.startsWith(reading.label.charAt(0).toUpperCase())).toBe(true);
      }),
    );
  });
});

describe('entryText', () => {
  it('writes an entry in its contribution row’s words', () => {
    const session = evidence({ outbox: [staged('d-1'), outcome('d-1', 'sent_edited')] });
    const [entry] = readSession(session, noCharter).entries;
    expect(entry && entryText(entry)).toBe('A message draft the owner edited before sending');
  });
});
