import type { VoiceInput } from './situation-brief.js';

/** How recently the voice facade must have taken a turn for a call to count as in progress. */
export const voiceWindowMs = 5 * 60 * 1000;

/**
 * Whether a voice call is in progress: the voice facade took a turn within the last five
 * minutes. `lastVoiceTurnAt` is epoch milliseconds, absent when no voice turn is on record.
 */
export function voiceState(lastVoiceTurnAt: number | undefined, now: number): VoiceInput {
  return {
    inCall:
      lastVoiceTurnAt !== undefined &&
      now >= lastVoiceTurnAt &&
      now - lastVoiceTurnAt <= voiceWindowMs,
  };
}
