import type { SourceRead, Taint, TranscriptEvent } from '@mecha/appraisal-core';

/**
 * The taint snapshot an episode carries in `meta.taint`: whether the session held the owner's
 * own content (`private`) and whether third-party content was in it (`untrusted`); or, when
 * the whole timeline cannot be vouched for, `{ unknown: true }` with no other key at all.
 */
export type EpisodeTaint =
  | { readonly private: boolean; readonly untrusted: boolean }
  | { readonly unknown: true };

/**
 * Reads a session's taint from its transcript. Known only when the transcript was read whole
 * and every message and tool result says what it carried; a torn transcript, or one with any
 * `unknown` entry, is unknown, never clean.
 */
export function sessionTaint(transcript: SourceRead<TranscriptEvent>): EpisodeTaint {
  if (transcript.state !== 'read') return { unknown: true };
  let untrusted = false;
  let owned = false;
  for (const event of transcript.records) {
    if (event.type === 'message') {
      if (event.taint === 'unknown') return { unknown: true };
      if (event.taint === 'third_party' || event.role === 'third_party') untrusted = true;
      if (event.role === 'owner') owned = true;
    } else if (event.type === 'tool_result') {
      if (event.taint === 'unknown') return { unknown: true };
      if (event.taint === 'third_party') untrusted = true;
      owned = true;
    } else if (event.type === 'run_start' && event.brief?.delivered === true) {
      owned = true;
    }
  }
  return { private: owned, untrusted };
}

/** Whether a snapshot says the whole timeline is known clean: the one case corrections travel. */
export function isKnownClean(taint: EpisodeTaint): boolean {
  return !('unknown' in taint) && !taint.untrusted;
}

/** The same snapshot in the words the appraisal records use: clean, third_party or unknown. */
export function taintWord(taint: EpisodeTaint): Taint {
  if ('unknown' in taint) return 'unknown';
  return taint.untrusted ? 'third_party' : 'clean';
}
