import type { TranscriptEvent } from '@mecha/appraisal-core';

/** What a claim may cite: the result of a tool call, or one of the owner's own messages. */
export type ClaimCiteKind = 'tool_result' | 'owner_message';

/** A claim as the appraiser wrote it: a sentence, what it cites, and the words it quotes. */
export interface ProposedClaim {
  readonly text: string;
  readonly cite: { readonly kind: ClaimCiteKind; readonly id: string };
  readonly quote: string;
}

/**
 * Why a claim was dropped: its id names nothing of that kind; it names the agent's own words,
 * a system line or third-party content, none of which is evidence; what it cites kept no
 * text; its quote is not in what it cites; or it quotes nothing.
 */
export type ClaimDropReason =
  | 'no_such_referent'
  | 'not_evidence'
  | 'referent_has_no_text'
  | 'quote_not_in_referent'
  | 'empty_quote';

/** What the claims of one appraisal came to: those kept, and a count per reason for the rest. */
export interface GroundedClaims {
  readonly kept: readonly ProposedClaim[];
  readonly dropped: Readonly<Partial<Record<ClaimDropReason, number>>>;
}

/** The citable texts of one session, by id, and the ids that are never evidence. */
export interface ClaimReferents {
  readonly toolResults: ReadonlyMap<string, string | undefined>;
  readonly ownerMessages: ReadonlyMap<string, string | undefined>;
  readonly notEvidence: ReadonlySet<string>;
}

/** Collects what a session's claims may cite from its whole transcript, not the bounded one. */
export function claimReferents(events: readonly TranscriptEvent[]): ClaimReferents {
  const toolResults = new Map<string, string | undefined>();
  const ownerMessages = new Map<string, string | undefined>();
  const notEvidence = new Set<string>();
  for (const event of events) {
    if (event.type === 'tool_result') {
      const earlier = toolResults.get(event.call_id);
      toolResults.set(event.call_id, joinTexts(earlier, event.text));
    } else if (event.type === 'message') {
      if (event.role === 'owner') ownerMessages.set(event.message_id, event.text);
      else notEvidence.add(event.message_id);
    }
  }
  return { toolResults, ownerMessages, notEvidence };
}

function joinTexts(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return `${a}\n${b}`;
}

/** Text as compared for quoting: NFC, runs of whitespace as one space, trimmed. */
function comparable(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

function dropReason(claim: ProposedClaim, referents: ClaimReferents): ClaimDropReason | undefined {
  const own = claim.cite.kind === 'tool_result' ? referents.toolResults : referents.ownerMessages;
  if (!own.has(claim.cite.id)) {
    return referents.notEvidence.has(claim.cite.id) ? 'not_evidence' : 'no_such_referent';
  }
  const quote = comparable(claim.quote);
  if (quote === '') return 'empty_quote';
  const text = own.get(claim.cite.id);
  if (text === undefined || comparable(text) === '') return 'referent_has_no_text';
  return comparable(text).includes(quote) ? undefined : 'quote_not_in_referent';
}

/**
 * Keeps each claim whose quote is found in what it cites, and counts the rest by reason. The
 * comparison ignores how whitespace is laid out and nothing else: case and wording must match.
 */
export function groundClaims(
  claims: readonly ProposedClaim[],
  referents: ClaimReferents,
): GroundedClaims {
  const kept: ProposedClaim[] = [];
  const dropped: Partial<Record<ClaimDropReason, number>> = {};
  for (const claim of claims) {
    const reason = dropReason(claim, referents);
    if (reason === undefined) kept.push(claim);
    else dropped[reason] = (dropped[reason] ?? 0) + 1;
  }
  return { kept, dropped };
}
