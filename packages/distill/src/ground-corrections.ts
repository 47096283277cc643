import type { TranscriptEvent } from '@mecha/appraisal-core';
import type { ReportedCorrection } from './distill-reply.js';

/** A correction as it is sent to the graph: grounded, or marked `grounded: false` for review. */
export interface SentCorrection {
  readonly wrong: string;
  readonly right?: string;
  readonly about?: string;
  /** Present (and false) only when the owner's own words in the session do not carry it. */
  readonly grounded?: false;
}

/** Text as compared for quoting: NFC, runs of whitespace as one space, trimmed. */
export function comparable(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/**
 * Checks each correction against the owner's own words in its session, as text-appraisal claims
 * are checked: it is grounded only when its quote is found in one of the owner's messages (case
 * and wording as written, whitespace laid out freely). The agent's words, tool results and
 * third-party text never ground one. An ungrounded correction is still sent, marked
 * `grounded: false`, so the graph puts it in review instead of closing a belief with nobody in
 * the loop. The quote itself stays in mecha.
 */
export function groundCorrections(
  corrections: readonly ReportedCorrection[],
  events: readonly TranscriptEvent[],
): SentCorrection[] {
  const owner = events
    .filter(
      (event): event is Extract<TranscriptEvent, { type: 'message' }> =>
        event.type === 'message' && event.role === 'owner' && event.text !== undefined,
    )
    .map((event) => comparable(event.text ?? ''));
  return corrections.map(({ quote, ...correction }) => {
    const said = quote === undefined ? '' : comparable(quote);
    const grounded = said !== '' && owner.some((text) => text.includes(said));
    return grounded ? correction : { ...correction, grounded: false };
  });
}
