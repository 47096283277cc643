import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { records, sessionShapeArbitrary } from '../__fixtures__/evidence-arbitraries.js';
import {
  appraiserVerdict,
  compaction,
  counter,
  end,
  intervention,
  message,
  start,
  stepCheck,
} from '../__fixtures__/evidence-builders.js';
import { appraiseRun } from './appraise-run.js';
import { formatValence } from './format-valence.js';

describe('appraiseRun: the live readout', () => {
  it('reads a clean completed run as silent and neutral: the badge shows nothing', () => {
    const reading = appraiseRun([start('r-1'), message('r-1', 0), end('r-1', 'completed')]);
    expect(reading).toEqual({
      errors: [],
      entries: [],
      valence: { positive: 0, negative: 0, partial: false },
      label: 'neutral',
      labelFacts: { compacted: false, charterLineIds: new Set() },
    });
    expect(formatValence(reading.valence)).toBe('');
  });

  it('labels a ceiling stop distress with −0.5', () => {
    const reading = appraiseRun([start('r-1'), end('r-1', 'token_ceiling')]);
    expect(reading.label).toBe('distress');
    expect(formatValence(reading.valence)).toBe('\u22120.5');
    expect(reading.errors).toEqual([
      expect.objectContaining({
        channel: 'counter',
        agency: 'owner',
        cite: { kind: 'counter', name: 'token_ceiling' },
      }),
    ]);
  });

  it('labels a steered run distress, and counts the owner’s stop once', () => {
    const reading = appraiseRun([
      start('r-1'),
      intervention('r-1', 'steer', 2),
      intervention('r-1', 'stop', 4),
      end('r-1', 'stopped'),
    ]);
    expect(reading.label).toBe('distress');
    expect(reading.valence).toEqual({ positive: 0, negative: 2, partial: false });
  });

  it('reads a compacted run neutral with a partial valence: the badge trails “…”', () => {
    const reading = appraiseRun([
      start('r-1'),
      intervention('r-1', 'steer', 2),
      compaction('r-1'),
      stepCheck('r-1', 'a', 12, false),
      end('r-1', 'completed'),
    ]);
    expect(reading.label).toBe('neutral');
    expect(reading.valence).toEqual({ positive: 0, negative: 2, partial: true });
    expect(formatValence(reading.valence)).toBe('\u22122.0\u2026');
  });

  it('ignores the excluded counters', () => {
    const reading = appraiseRun([
      start('r-1'),
      counter('r-1', 'tool_denied', 3),
      counter('r-1', 'blocked_sends', 1),
      counter('r-1', 'context_overflows', 2),
      counter('r-1', 'tool_errors', 5),
      end('r-1', 'completed'),
    ]);
    expect(reading.errors).toEqual([]);
  });

  it('still loads an old appraiser verdict and reads another party’s fault as anger', () => {
    const reading = appraiseRun([
      start('r-1'),
      appraiserVerdict('r-1', -0.5, 'other'),
      end('r-1', 'completed'),
    ]);
    expect(reading.label).toBe('anger');
  });

  it('has no positive channel: a run’s own records never read positive or pride', () => {
    fc.assert(
      fc.property(sessionShapeArbitrary, (shape) => {
        const session = records(shape, true);
        const events = session.transcript.state === 'read' ? session.transcript.records : [];
        const reading = appraiseRun(events);
        expect(reading.valence.positive).toBe(0);
        expect(['neutral', 'distress']).toContain(reading.label);
      }),
    );
  });
});
