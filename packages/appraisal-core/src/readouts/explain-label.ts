import { contributionTable } from '../rules/contribution-table.js';
import { type LabelFacts, type LabelRuleId, labelDerivation } from '../rules/derive-label.js';
import type { SignedEntry } from '../rules/signed-entry.js';
import type { Label } from '../schemas/goal-error.js';
import { citeText, formatSign } from './pointer-text.js';

/** Why a session or run reads the label it does, ready for any surface to show. */
export interface LabelReason {
  readonly label: Label;
  /** The rule of the derivation that fired (`docs/appraisal.md` lists them in order). */
  readonly rule: LabelRuleId;
  /** That rule's condition in the owner's words. */
  readonly because: string;
  /** The signed entries the rule read, in record order (none for `compacted`, `irrelevant`). */
  readonly entries: readonly SignedEntry[];
  /** One line: the label, the rule's words and the entries it read, each with sign and cite. */
  readonly sentence: string;
}

/** What a signed entry records, in plain words: the contribution table row's own words. */
export function entryText(entry: SignedEntry): string {
  return contributionTable[entry.row].row;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

const shownEntries = 3;

/**
 * Explains a label from the same derivation that named it: the rule that fired, in the words
 * of the rule table, and the entries it read. The CLI, the web board and Slack show this
 * sentence, so a label never reads two ways.
 */
export function explainLabel(reading: {
  readonly entries: readonly SignedEntry[];
  readonly labelFacts: LabelFacts;
}): LabelReason {
  const errors = reading.entries.map((entry) => entry.error);
  const { rule, witnesses } = labelDerivation(errors, reading.labelFacts);
  const read = new Set(witnesses);
  const entries = reading.entries.filter((entry) => read.has(entry.error));
  const parts = entries
    .slice(0, shownEntries)
    .map(
      (entry) =>
        `${lowerFirst(entryText(entry))} (${formatSign(entry.error.sign)}, ${citeText(entry.error.cite)})`,
    );
  const more = entries.length > shownEntries ? `, and ${entries.length - shownEntries} more` : '';
  const evidence = parts.length > 0 ? `: ${parts.join('; ')}${more}` : '';
  const word = rule.label.charAt(0).toUpperCase() + rule.label.slice(1);
  return {
    label: rule.label,
    rule: rule.id,
    because: rule.because,
    entries,
    sentence: `${word} because ${rule.because}${evidence}.`,
  };
}
