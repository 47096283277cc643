import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stopCauseFor } from './stop-cause.js';

const reasons = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'interrupted', 'other'];

describe('stopCauseFor', () => {
  it('maps each finish reason the SDK reports', () => {
    expect(reasons.map((reason) => stopCauseFor(reason, false))).toEqual([
      'completed',
      'token_ceiling',
      'error',
      'completed',
      'error',
      'interrupted',
      'completed',
    ]);
  });

  it('is parked whenever a call waits on the owner, whatever the reason', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...reasons), fc.string()), (reason) => {
        expect(stopCauseFor(reason, true)).toBe('parked');
        expect(stopCauseFor(reason, false)).not.toBe('parked');
      }),
    );
  });
});
