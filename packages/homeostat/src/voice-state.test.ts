import { describe, expect, it } from 'vitest';
import { voiceState, voiceWindowMs } from './voice-state.js';

describe('voiceState', () => {
  const now = 1_000_000_000;

  it('counts a call as in progress for five minutes after the facade’s last turn', () => {
    expect(voiceWindowMs).toBe(5 * 60 * 1000);
    expect(voiceState(now - 60_000, now)).toEqual({ inCall: true });
    expect(voiceState(now - voiceWindowMs, now)).toEqual({ inCall: true });
    expect(voiceState(now - voiceWindowMs - 1, now)).toEqual({ inCall: false });
  });

  it('is not in a call when no voice turn is on record, or the turn is in the future', () => {
    expect(voiceState(undefined, now)).toEqual({ inCall: false });
    expect(voiceState(now + 1, now)).toEqual({ inCall: false });
  });
});
