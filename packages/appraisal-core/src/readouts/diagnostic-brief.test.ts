import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryPorts, unreadable } from '../__fixtures__/memory-ports.js';
import { at, session, textAppraisal } from '../__fixtures__/records.js';
import type { ConditionsSnapshot } from '../schemas/conditions.js';
import type { TextAppraisalRecord } from '../schemas/learning.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { type DiagnosticBriefRequest, diagnosticBrief } from './diagnostic-brief.js';

const on = { sensorsInBrief: true, appraisalsInBrief: true } as const;

/** A text appraisal whose words name its own session, so any leak is visible in the brief. */
function said(sessionId: string, options: Parameters<typeof textAppraisal>[2] = {}) {
  const record = textAppraisal(`a-${sessionId}-${options.at ?? 5}`, sessionId, options);
  return {
    ...record,
    interpretation: `words of ${sessionId}`,
    prediction: `prediction of ${sessionId}`,
    owner_wants: `wants of ${sessionId}`,
    lessons: [`lesson of ${sessionId}`],
  } satisfies TextAppraisalRecord;
}

function withConditions(sessionId: string, snapshot: ConditionsSnapshot) {
  const base = session(sessionId);
  const transcript = (base.transcript as readonly TranscriptEvent[]).map((event) =>
    event.type === 'run_start' ? { ...event, conditions: snapshot } : event,
  );
  return { ...base, transcript };
}

const request = (overrides: Partial<DiagnosticBriefRequest> = {}): DiagnosticBriefRequest => ({
  candidate: 'rule-42',
  heldIn: ['s-1', 's-2'],
  heldOut: ['s-3'],
  ...on,
  ...overrides,
});

describe('diagnosticBrief', () => {
  it('shows the clean appraisals of held-in sessions only, newest per session', async () => {
    const ports = memoryPorts({
      textAppraisals: [
        said('s-1', { at: 1 }),
        said('s-1', { at: 7 }),
        said('s-2', { taint: 'third_party' }),
        said('s-3'),
        said('s-4'),
      ],
    });
    const brief = await diagnosticBrief(ports, request());
    expect(brief.appraisals).toEqual({
      state: 'read',
      appraisals: [
        {
          sessionId: 's-1',
          at: at(7),
          interpretation: 'words of s-1',
          prediction: 'prediction of s-1',
          ownerWants: 'wants of s-1',
          lessons: ['lesson of s-1'],
        },
      ],
      withheldTainted: ['s-2'],
      withheldHeldOut: [],
    });
  });

  it('lets held-out win when a session is named in both sets', async () => {
    const ports = memoryPorts({ textAppraisals: [said('s-1'), said('s-2')] });
    const brief = await diagnosticBrief(ports, request({ heldOut: ['s-2'] }));
    expect(JSON.stringify(brief)).not.toContain('of s-2');
    expect(brief.appraisals).toMatchObject({
      appraisals: [{ sessionId: 's-1' }],
      withheldHeldOut: ['s-2'],
    });
  });

  it('summarises the held-in runs’ sensors: mean guilt, load and charter lines past setpoint', async () => {
    const reading = (state: 'within' | 'past_setpoint') => ({
      line: 'replies',
      rank: 1,
      sensor: 'outbox_age' as const,
      store: 'outbox' as const,
      state,
      setpoint_ms: 1000,
      setpoint_source: 'setpoint' as const,
      withdrawn_saturated: false,
    });
    const ports = memoryPorts({
      sessions: [
        withConditions('s-1', {
          anticipated_guilt: 0.2,
          load_avg_1m: 1,
          charter: [reading('within')],
        }),
        withConditions('s-2', {
          anticipated_guilt: 0.6,
          load_avg_1m: 3,
          charter: [reading('past_setpoint')],
        }),
        withConditions('s-3', { anticipated_guilt: 0.99, load_avg_1m: 50 }),
      ],
    });
    const brief = await diagnosticBrief(ports, request());
    expect(brief.sensors).toEqual({
      state: 'read',
      runsWithConditions: 2,
      runsWithoutConditions: 0,
      sessionsNotRead: [],
      meanAnticipatedGuilt: 0.4,
      meanLoadAverage: 2,
      meanPeakContextPressure: null,
      charterLines: [{ line: 'replies', pastSetpoint: 1, read: 2 }],
    });
  });

  it('says a session whose transcript could not be read, never counts it as calm', async () => {
    const ports = memoryPorts({ sessions: [session('s-1')] });
    const brief = await diagnosticBrief(ports, request());
    expect(brief.sensors).toMatchObject({
      state: 'partial',
      sessionsNotRead: ['s-2'],
      runsWithConditions: 0,
      runsWithoutConditions: 1,
      meanAnticipatedGuilt: null,
    });
  });

  it('leaves each part out by its switch, and says which switch', async () => {
    const ports = memoryPorts({ textAppraisals: [said('s-1')] });
    const brief = await diagnosticBrief(
      ports,
      request({ sensorsInBrief: false, appraisalsInBrief: false }),
    );
    expect(brief).toEqual({
      candidate: 'rule-42',
      sensors: { state: 'off', switch: 'agent.sensors_in_brief' },
      appraisals: { state: 'off', switch: 'agent.appraisals_in_brief' },
    });
    expect(ports.reads.get('textAppraisals')).toBeUndefined();
  });

  it('reports an unreadable appraisal store as unreadable, not as no appraisals', async () => {
    const ports = memoryPorts({ textAppraisals: unreadable('EACCES') });
    const brief = await diagnosticBrief(ports, request({ sensorsInBrief: false }));
    expect(brief.appraisals).toEqual({ state: 'unreadable', reason: 'EACCES' });
  });

  it('never lets a held-out session’s words into the brief, whatever the sets', async () => {
    const ids = ['s-1', 's-2', 's-3', 's-4', 's-5'];
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(ids),
        fc.subarray(ids),
        fc.array(
          fc.record({
            session: fc.constantFrom(...ids),
            at: fc.nat(9),
            taint: fc.constantFrom('clean', 'third_party', 'unknown') as fc.Arbitrary<
              TextAppraisalRecord['taint']
            >,
          }),
          { maxLength: 12 },
        ),
        async (heldIn, heldOut, written) => {
          const ports = memoryPorts({
            sessions: ids.map((id) => session(id)),
            textAppraisals: written.map((entry) =>
              said(entry.session, { at: entry.at, taint: entry.taint }),
            ),
          });
          const brief = await diagnosticBrief(ports, request({ heldIn, heldOut }));
          const text = JSON.stringify(brief);
          for (const id of heldOut) expect(text).not.toContain(`of ${id}`);
          for (const id of heldOut) expect(ports.reads.get(`transcript:${id}`)).toBeUndefined();
          if (brief.appraisals.state === 'read') {
            for (const shown of brief.appraisals.appraisals) {
              expect(heldIn).toContain(shown.sessionId);
              const own = written.filter((entry) => entry.session === shown.sessionId);
              const newest = own.reduce((a, b) => (b.at > a.at ? b : a));
              expect(newest.taint).toBe('clean');
            }
          }
        },
      ),
    );
  });
});
