/** A transcript cut to what one model call may read, saying how much was left out. */
export interface BoundedTranscript {
  readonly text: string;
  readonly omittedCharacters: number;
}

/** How much of a transcript's head and tail a distillation prompt keeps. */
export interface TranscriptBounds {
  readonly head: number;
  readonly tail: number;
}

/** The bounds distillation uses: 6,000 characters of head, 18,000 of tail. */
export const defaultTranscriptBounds: TranscriptBounds = { head: 6_000, tail: 18_000 };

/**
 * Keeps the head and the tail of a rendered transcript and marks the cut in the middle, so
 * the opening goal and the ending both reach the model however long the session ran.
 */
export function boundTranscript(
  text: string,
  bounds: TranscriptBounds = defaultTranscriptBounds,
): BoundedTranscript {
  const characters = Array.from(text);
  if (characters.length <= bounds.head + bounds.tail) return { text, omittedCharacters: 0 };
  const omitted = characters.length - bounds.head - bounds.tail;
  const head = characters.slice(0, bounds.head).join('');
  const tail = characters.slice(characters.length - bounds.tail).join('');
  return {
    text: `${head}\n[… ${omitted} characters omitted …]\n${tail}`,
    omittedCharacters: omitted,
  };
}
