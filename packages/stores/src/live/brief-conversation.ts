import { shouldSendBrief } from '@mecha/homeostat';

/**
 * The briefs one long conversation has been sent. `offer` is called with each turn's freshly
 * rendered brief and returns the words to put after the owner's message — only when they differ
 * from the last brief sent, or when the conversation was compacted since (the brief is put back,
 * never summarised) — and `undefined` otherwise.
 */
export interface BriefConversation {
  offer(text: string, options?: { readonly compacted?: boolean }): string | undefined;
  /** The words last sent, if any. */
  readonly lastSent: string | undefined;
}

/** A new conversation's brief tracker; `sent` is a brief already delivered in it. */
export function briefConversation(sent?: string): BriefConversation {
  let last = sent;
  return {
    offer(text, options = {}) {
      if (!shouldSendBrief(last, text, options)) return undefined;
      last = text;
      return text;
    },
    get lastSent() {
      return last;
    },
  };
}
