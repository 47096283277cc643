// One line of the situation brief: its words (none when there is nothing to say) and how its
// field was read, as the brief record keeps it.
import type { BriefFieldRecord } from '@mecha/appraisal-core';
import { reasonText } from './words.js';

export interface Line {
  readonly text: string | undefined;
  readonly field: BriefFieldRecord;
}

export const read = (text: string): Line => ({ text, field: { state: 'read' } });
export const partial = (text: string, reason: string): Line => ({
  text,
  field: { state: 'partial', reason: reasonText(reason) },
});

export function unreadLine(label: string, reading: { reason: string }): Line {
  const reason = reasonText(reading.reason);
  return { text: `${label}: could not be read (${reason}).`, field: { state: 'unread', reason } };
}
