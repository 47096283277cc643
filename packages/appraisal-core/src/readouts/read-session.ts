import type { CharterLine } from '@mecha/charter';
import type { SessionEvidence } from '../ports/session-evidence.js';
import { attributeToCharter } from '../rules/charter-attribution.js';
import { signedEntries } from '../rules/contributions.js';
import { deriveLabel, type LabelFacts } from '../rules/derive-label.js';
import { fillControllable } from '../rules/fill-controllable.js';
import { labelFactsFor } from '../rules/label-facts-for.js';
import { errorsOf, type SignedEntry } from '../rules/signed-entry.js';
import { type Valence, valence } from '../rules/valence.js';
import type { Channel, GoalError, Label } from '../schemas/goal-error.js';
import type { SourceRead } from '../schemas/source-read.js';

/** One session's derived reading: its signed errors with cites, label and valence. */
export interface SessionReading {
  readonly sessionId: string;
  /** Whether the transcript itself could be read; an unreadable one is missing evidence. */
  readonly transcriptRead: boolean;
  /** The signed errors, each attributed to the charter where a record or a sensor says so. */
  readonly errors: readonly GoalError[];
  /** The same errors, each with the id of the contribution-table row that signed it. */
  readonly entries: readonly SignedEntry[];
  readonly label: Label;
  readonly valence: Valence;
  /** Channels whose source could not be read whole. */
  readonly incomplete: readonly Channel[];
  readonly compacted: boolean;
  /** Some error named an existing charter line itself. */
  readonly citesCharterLine: boolean;
  /** Some error was attributed to a charter line by the sensor watching its store. */
  readonly attributedBySensor: boolean;
  /** The facts the label was derived with, for readers that fold several sessions. */
  readonly labelFacts: LabelFacts;
}

/**
 * Derives one session's reading from its evidence and the charter: contributions, charter
 * attribution, then label and valence. An unreadable charter attributes nothing and makes the
 * reading partial; nothing is stored. `resolved` holds the counterfactual probe's findings for
 * this session's steers and denials, when the paid pass ran: they fill `controllable`.
 */
export function readSession(
  evidence: SessionEvidence,
  charter: SourceRead<CharterLine>,
  resolved?: ReadonlyMap<string, boolean>,
): SessionReading {
  const signed = signedEntries(evidence);
  const probed = fillControllable(signed.entries, resolved);
  const lines = charter.state === 'unreadable' ? [] : charter.records;
  const attributed = attributeToCharter(errorsOf(probed), lines);
  const entries = probed.map((entry, index) => ({
    row: entry.row,
    error: attributed[index]?.error ?? entry.error,
    ...(entry.source === undefined ? {} : { source: entry.source }),
  }));
  const errors = errorsOf(entries);
  const charterLineIds = new Set(lines.map((line) => line.id));
  const labelFacts = labelFactsFor(evidence, charterLineIds);
  return {
    sessionId: evidence.sessionId,
    transcriptRead: evidence.transcript.state !== 'unreadable',
    errors,
    entries,
    label: deriveLabel(errors, labelFacts),
    valence: valence(errors, {
      partial: signed.partial || charter.state !== 'read' || evidence.transcript.state !== 'read',
    }),
    incomplete: signed.incomplete,
    compacted: signed.compacted,
    citesCharterLine: attributed.some((entry) => entry.attribution === 'named'),
    attributedBySensor: attributed.some((entry) => entry.attribution === 'sensor'),
    labelFacts,
  };
}
