import { createHash } from 'node:crypto';
import { idSchema } from '@mecha/appraisal-core';

// How a source's words, arguments and ids become transcript fields: text cut to a bound,
// arguments and results kept as digests, call ids made mecha ids.

/** Message text longer than this is cut (with a marker): a transcript is not a mirror. */
export const maxTextChars = 32 * 1024;

const isId = (value: string): boolean => idSchema.safeParse(value).success;

/** A `sha256:` digest of some text, for arguments and results the transcript does not copy. */
export function digestOf(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** A source's call id as a mecha id: kept when it is one, else a stable digest of it. */
export function callIdOf(sourceId: string): string {
  return isId(sourceId)
    ? sourceId
    : `call-${createHash('sha256').update(sourceId).digest('hex').slice(0, 24)}`;
}

/** Text as a transcript keeps it: cut (with a marker) past {@link maxTextChars}. */
export function cut(text: string): string {
  return text.length <= maxTextChars
    ? text
    : `${text.slice(0, maxTextChars)} […cut by the importer]`;
}
