import type { SessionEvidence } from '../ports/session-evidence.js';
import type { LabelFacts, OwnerOutcomeFact } from './derive-label.js';

/**
 * Assembles the facts `deriveLabel` needs for one session: whether any of its runs compacted,
 * the charter lines that exist, and its linked owner outcomes by id — so the label can tell a
 * confirmed error or an adverse impact from a cite, never from free text.
 */
export function labelFactsFor(
  evidence: SessionEvidence,
  charterLineIds: ReadonlySet<string>,
): LabelFacts {
  const transcript = evidence.transcript.state === 'unreadable' ? [] : evidence.transcript.records;
  const outcomes =
    evidence.ownerOutcomes.state === 'unreadable' ? [] : evidence.ownerOutcomes.records;
  const ownerOutcomes = new Map<string, OwnerOutcomeFact>();
  for (const outcome of outcomes) {
    ownerOutcomes.set(outcome.outcome_id, {
      kind: outcome.kind,
      commitment: outcome.commitment_id !== undefined,
    });
  }
  return {
    compacted: transcript.some((event) => event.type === 'compaction'),
    charterLineIds,
    ownerOutcomes,
  };
}
