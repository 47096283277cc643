import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ArmOutcome } from '../ports/replayer.js';
import { stopCauseSchema } from '../schemas/transcript.js';
import { gradeProbe } from './grade-probe.js';

const call = fc.record(
  { tool: fc.constantFrom('edit_file', 'read_file', 'shell'), target: fc.constantFrom('a', 'b') },
  { requiredKeys: ['tool'] },
);
const calls = fc.array(call, { maxLength: 4 });
const arm: fc.Arbitrary<ArmOutcome> = fc.oneof(
  fc.record({
    state: fc.constant('ended' as const),
    stop_cause: fc.constantFrom(...stopCauseSchema.options),
    calls,
    drafts: fc.constant<{ text: string }[]>([]),
  }),
  fc.record({ state: fc.constant('failed' as const), reason: fc.string() }),
);

describe('gradeProbe', () => {
  it('reads an arm that completed with every recorded call as redundant', () => {
    const recorded = { state: 'gradeable' as const, calls: [{ tool: 'edit_file', target: 'a' }] };
    expect(
      gradeProbe(recorded, {
        state: 'ended',
        stop_cause: 'completed',
        calls: [
          { tool: 'read_file', target: 'a' },
          { tool: 'edit_file', target: 'a' },
        ],
        drafts: [],
      }),
    ).toBe('redundant');
  });

  it('reads an arm that completed without a recorded call, or looped, as mattered', () => {
    const recorded = { state: 'gradeable' as const, calls: [{ tool: 'edit_file', target: 'a' }] };
    const ended = (stop_cause: 'completed' | 'loop', tools: string[]): ArmOutcome => ({
      state: 'ended',
      stop_cause,
      calls: tools.map((tool) => ({ tool, target: 'a' })),
      drafts: [],
    });
    expect(gradeProbe(recorded, ended('completed', ['read_file']))).toBe('mattered');
    expect(gradeProbe(recorded, ended('loop', ['edit_file']))).toBe('mattered');
  });

  it('tells calls apart by their target: the same tool on another file is not the recorded call', () => {
    const recorded = { state: 'gradeable' as const, calls: [{ tool: 'edit_file', target: 'a' }] };
    const completed = (calls: { tool: string; target?: string }[]): ArmOutcome => ({
      state: 'ended',
      stop_cause: 'completed',
      calls,
      drafts: [],
    });
    expect(gradeProbe(recorded, completed([{ tool: 'edit_file', target: 'b' }]))).toBe('mattered');
    expect(gradeProbe(recorded, completed([{ tool: 'edit_file' }]))).toBe('mattered');
    expect(gradeProbe(recorded, completed([{ tool: 'edit_file', target: 'a' }]))).toBe('redundant');
  });

  it('reads a failed arm, an error or empty output as inconclusive', () => {
    const recorded = { state: 'gradeable' as const, calls: [] };
    expect(gradeProbe(recorded, { state: 'failed', reason: 'x' })).toBe('inconclusive');
    for (const stop_cause of ['error', 'empty_output', 'parked', 'shutdown'] as const) {
      expect(gradeProbe(recorded, { state: 'ended', stop_cause, calls: [], drafts: [] })).toBe(
        'inconclusive',
      );
    }
  });

  it('an arm that repeats the recorded run exactly is never mattered', () => {
    fc.assert(
      fc.property(calls, (made) => {
        const outcome: ArmOutcome = {
          state: 'ended',
          stop_cause: 'completed',
          calls: made,
          drafts: [],
        };
        expect(gradeProbe({ state: 'gradeable', calls: made }, outcome)).toBe('redundant');
      }),
    );
  });

  it('a failed arm is always inconclusive, and any arm gets one finding', () => {
    fc.assert(
      fc.property(calls, arm, (recorded, outcome) => {
        const finding = gradeProbe({ state: 'gradeable', calls: recorded }, outcome);
        expect(['mattered', 'redundant', 'inconclusive']).toContain(finding);
        if (outcome.state === 'failed') expect(finding).toBe('inconclusive');
      }),
    );
  });

  it('adding calls to a completing arm never turns redundant into mattered', () => {
    fc.assert(
      fc.property(calls, calls, (recorded, extra) => {
        const base: ArmOutcome = {
          state: 'ended',
          stop_cause: 'completed',
          calls: recorded,
          drafts: [],
        };
        const more: ArmOutcome = { ...base, calls: [...recorded, ...extra] };
        expect(gradeProbe({ state: 'gradeable', calls: recorded }, base)).toBe('redundant');
        expect(gradeProbe({ state: 'gradeable', calls: recorded }, more)).toBe('redundant');
      }),
    );
  });
});
