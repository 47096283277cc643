import type { GoalError } from '@mecha/appraisal-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildEpisode, type EpisodeParts } from './build-episode.js';
import { goalDirectory } from './resolve-goal.js';
import type { EpisodeTaint } from './session-taint.js';

const directory = goalDirectory(
  { state: 'read', records: [{ id: 'replies', text: 'Reply to people waiting on me' }] },
  {
    state: 'read',
    records: [{ v: 1, kind: 'task', id: 'task-1', title: 'totals', status: 'next' }],
  },
  { state: 'read', records: [] },
);

const stopError: GoalError = {
  channel: 'counter',
  sign: -0.5,
  agency: 'owner',
  visible: false,
  controllable: 'unfilled',
  cite: { kind: 'counter', name: 'turn_ceiling' },
};

const parts = (overrides: Partial<EpisodeParts> = {}): EpisodeParts => ({
  sessionId: '20260805T120000-a1b2c3d4',
  sourceRef: '/home/you/.mecha/sessions/20260805T120000-a1b2c3d4.jsonl',
  occurredAt: '2026-08-05T12:00:00Z',
  body: 'Drafted the grant reply to Priya Nair at Yale.',
  taint: { private: true, untrusted: false },
  distilledBy: 'sha256:abc',
  appraisal: { label: 'distress', errors: [stopError] },
  directory,
  corrections: [{ wrong: 'Priya is at Brown', right: 'Priya is at Yale', about: 'Priya Nair' }],
  surprises: [{ about: 'grant deadline', graph_said: 'the 14th', found: 'the 9th' }],
  ...overrides,
});

describe('buildEpisode', () => {
  it('pushes exactly the fields distillation promises', () => {
    const episode = buildEpisode(parts({ goal: { kind: 'charter', id: 'replies' } }));
    expect(episode).toStrictEqual({
      kind: 'episode',
      source: 'agent:mecha',
      source_id: '20260805T120000-a1b2c3d4',
      source_ref: '/home/you/.mecha/sessions/20260805T120000-a1b2c3d4.jsonl',
      occurred_at: '2026-08-05T12:00:00Z',
      body: 'Drafted the grant reply to Priya Nair at Yale.',
      meta: {
        taint: { private: true, untrusted: false },
        distilled_by: 'sha256:abc',
        affect: 'distress',
        goal_errors: [
          {
            channel: 'counter',
            sign: -0.5,
            agency: 'owner',
            visible: false,
            cite: { kind: 'counter', name: 'turn_ceiling' },
          },
        ],
        goal: 'charter:replies',
        serves_charter: ['replies'],
        corrections: [
          { wrong: 'Priya is at Brown', right: 'Priya is at Yale', about: 'Priya Nair' },
        ],
        surprises: [{ about: 'grant deadline', graph_said: 'the 14th', found: 'the 9th' }],
      },
    });
  });

  it('withholds corrections and surprises from a tainted timeline but still sends the episode and its appraisal', () => {
    const episode = buildEpisode(parts({ taint: { private: true, untrusted: true } }));
    expect(episode.meta).not.toHaveProperty('corrections');
    expect(episode.meta).not.toHaveProperty('surprises');
    expect(episode.meta.affect).toBe('distress');
    expect(episode.body).toBe('Drafted the grant reply to Priya Nair at Yale.');
  });

  it('records unknown taint as {"unknown": true} and withholds corrections', () => {
    const episode = buildEpisode(parts({ taint: { unknown: true } }));
    expect(episode.meta.taint).toStrictEqual({ unknown: true });
    expect(episode.meta).not.toHaveProperty('corrections');
  });

  it('leaves appraisal metadata out when there is no outcome to appraise', () => {
    const { appraisal: _appraisal, ...rest } = parts();
    const episode = buildEpisode(rest);
    expect(episode.meta).not.toHaveProperty('affect');
    expect(episode.meta).not.toHaveProperty('goal_errors');
  });

  it('reduces goals that do not resolve to the kind word and names no charter line then', () => {
    const episode = buildEpisode(
      parts({
        goal: { kind: 'task', id: 'task-404' },
        appraisal: {
          label: 'distress',
          errors: [{ ...stopError, goal: { kind: 'charter', id: 'made-up' } }],
        },
      }),
    );
    expect(episode.meta.goal).toBe('task');
    expect(episode.meta.goal_errors?.[0]?.goal).toBe('charter');
    expect(episode.meta).not.toHaveProperty('serves_charter');
  });

  it('carries an error’s resolved charter line as serves_charter', () => {
    const episode = buildEpisode(
      parts({
        appraisal: {
          label: 'pride',
          errors: [{ ...stopError, sign: 1, goal: { kind: 'charter', id: 'replies' } }],
        },
      }),
    );
    expect(episode.meta.goal_errors?.[0]?.goal).toBe('charter:replies');
    expect(episode.meta.serves_charter).toEqual(['replies']);
    expect(episode.meta).not.toHaveProperty('goal');
  });

  it('sends corrections and surprises only from a known-clean timeline, whatever else holds', () => {
    const taint: fc.Arbitrary<EpisodeTaint> = fc.oneof(
      fc.constant({ unknown: true as const }),
      fc.record({ private: fc.boolean(), untrusted: fc.boolean() }),
    );
    fc.assert(
      fc.property(taint, fc.boolean(), (snapshot, appraised) => {
        const { appraisal: _appraisal, ...rest } = parts({ taint: snapshot });
        const episode = buildEpisode(appraised ? parts({ taint: snapshot }) : rest);
        const clean = !('unknown' in snapshot) && !snapshot.untrusted;
        expect('corrections' in episode.meta).toBe(clean);
        expect('surprises' in episode.meta).toBe(clean);
        expect(episode.source).toBe('agent:mecha');
        expect(episode.meta.taint).toBe(snapshot);
      }),
    );
  });
});
