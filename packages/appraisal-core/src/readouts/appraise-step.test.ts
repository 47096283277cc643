import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { appraiseRun } from './appraise-run.js';
import { appraiseStep } from './appraise-step.js';

const base = (second: number) => ({
  v: 1 as const,
  at: `2026-09-20T09:00:${String(second).padStart(2, '0')}Z`,
  run_id: 'run-1',
});
const start: TranscriptEvent = {
  ...base(0),
  type: 'run_start',
  session_id: 's-1',
  surface: 'cli',
  session_kind: 'ordinary',
};
const call = (id: string, second: number): TranscriptEvent => ({
  ...base(second),
  type: 'tool_call',
  turn: 1,
  call_id: id,
  tool: 'shell',
});
const result = (
  id: string,
  status: 'ok' | 'error' | 'denied',
  second: number,
): TranscriptEvent => ({
  ...base(second),
  type: 'tool_result',
  turn: 1,
  call_id: id,
  status,
  taint: 'clean',
});
const check = (passed: boolean, second: number): TranscriptEvent => ({
  ...base(second),
  type: 'step_check',
  turn: 1,
  step_id: 'step-1',
  passed,
});

describe('appraiseStep', () => {
  it('signs a failed step check in the span, and nothing before the span', () => {
    const step = appraiseStep('step-1', start, [
      call('c-1', 1),
      result('c-1', 'ok', 2),
      check(false, 3),
    ]);
    expect(step).toMatchObject({ stepId: 'step-1', calls: 1, failedCalls: 0, isNull: false });
    expect(step.reading.errors).toHaveLength(1);
    expect(step.reading.errors[0]).toMatchObject({ sign: -1, agency: 'self' });
    expect(step.reading.label).not.toBe('neutral');
    const clean = appraiseStep('step-2', start, [call('c-2', 4), result('c-2', 'error', 5)]);
    expect(clean).toMatchObject({ calls: 1, failedCalls: 1, isNull: false });
    expect(clean.reading.errors).toEqual([]);
  });

  it('reads a tick with no call since the last one as a null step', () => {
    expect(appraiseStep('step-3', start, [check(true, 6)])).toMatchObject({
      calls: 0,
      isNull: true,
    });
  });

  it('reads a span as the run rules read the same events', () => {
    const eventArbitrary = fc.oneof(
      fc.nat(9).map((n) => call(`c-${n}`, n)),
      fc
        .tuple(fc.nat(9), fc.constantFrom('ok' as const, 'error' as const, 'denied' as const))
        .map(([n, status]) => result(`c-${n}`, status, n)),
      fc.tuple(fc.boolean(), fc.nat(9)).map(([passed, n]) => check(passed, n)),
    );
    fc.assert(
      fc.property(fc.array(eventArbitrary, { maxLength: 10 }), (span) => {
        const step = appraiseStep('s', start, span);
        expect(step.reading).toEqual(appraiseRun([start, ...span]));
        expect(step.isNull).toBe(!span.some((event) => event.type === 'tool_call'));
        expect(step.failedCalls).toBe(
          span.filter((event) => event.type === 'tool_result' && event.status === 'error').length,
        );
      }),
    );
  });
});
