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

/** A transcript cut to a budget in the model's own tokens, and what it came to. */
export interface TokenBoundedTranscript extends BoundedTranscript {
  /** Tokens the text takes, as the counter measured it. */
  readonly tokens: number;
}

async function longestFitting(
  length: number,
  budget: number,
  measure: (characters: number) => Promise<number>,
): Promise<number> {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((await measure(middle)) <= budget) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * Keeps a transcript's head and tail within `budget` tokens of the loaded model, counted by
 * `countTokens` (not characters: a CJK character or a line of code can take several tokens).
 * The tail gets three quarters, because outcomes live at the end; the cut is marked as in
 * `boundTranscript`. The result is measured again and trimmed until it fits.
 */
export async function boundTranscriptInTokens(
  text: string,
  budget: number,
  countTokens: (text: string) => Promise<number>,
): Promise<TokenBoundedTranscript> {
  const whole = await countTokens(text);
  if (whole <= budget) return { text, omittedCharacters: 0, tokens: whole };
  const characters = Array.from(text);
  const marker = (omitted: number) => `\n[… ${omitted} characters omitted …]\n`;
  const room = Math.max(0, budget - (await countTokens(marker(characters.length))) - 2);
  let tailBudget = Math.floor(room * 0.75);
  let headBudget = room - tailBudget;
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const head = await longestFitting(characters.length, headBudget, (n) =>
      countTokens(characters.slice(0, n).join('')),
    );
    const tail = await longestFitting(characters.length - head, tailBudget, (n) =>
      countTokens(characters.slice(characters.length - n).join('')),
    );
    const omitted = characters.length - head - tail;
    const cut = `${characters.slice(0, head).join('')}${marker(omitted)}${characters
      .slice(characters.length - tail)
      .join('')}`;
    const tokens = await countTokens(cut);
    if (tokens <= budget) return { text: cut, omittedCharacters: omitted, tokens };
    // Pieces can merge into other tokens where they join: give a little back and measure again.
    const over = tokens - budget;
    tailBudget = Math.max(0, tailBudget - Math.ceil(over * 0.75) - 1);
    headBudget = Math.max(0, headBudget - Math.ceil(over * 0.25) - 1);
  }
  const bare = marker(characters.length);
  return { text: bare, omittedCharacters: characters.length, tokens: await countTokens(bare) };
}
