import { idSchema } from '@mecha/appraisal-core';

// Internal helpers the brief and its lines share; none of them is public API.

const charterLineId = /^[\p{Ll}\p{Lo}\p{Nd}][\p{Ll}\p{Lo}\p{Lm}\p{M}\p{Nd}_.-]{0,63}$/u;

/** A harness-minted id as printed, or a stand-in when the value is not an id (so no prose rides in one). */
export function idText(id: string): string {
  return idSchema.safeParse(id).success ? id : '(an id that cannot be shown)';
}

/** A charter line id in backticks, or a stand-in when it is not a valid line id. */
export function lineText(id: string): string {
  return charterLineId.test(id) && id.normalize('NFC') === id ? `\`${id}\`` : 'an unnamed line';
}

/** A reason for a field that could not be read: one line, no backticks, at most 200 characters. */
export function reasonText(reason: string): string {
  const line = reason
    .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
    .replace(/`/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  const text = line === '' ? 'no reason was given' : line;
  return [...text].length > 200 ? `${[...text].slice(0, 199).join('')}…` : text;
}

/** A reason with every digit replaced, for the one line that may hold no number of its own. */
export function digitFreeReason(reason: string): string {
  return reasonText(reason).replace(/\p{Nd}+/gu, '#');
}

/** The owner's own words, quoted so that nothing inside can end the quotation. */
export function ownerWords(text: string): string {
  return JSON.stringify(text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ').trim());
}

/** `a`, `a and b`, `a, b and c`. */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** A list of ids, at most `limit` of them printed and the rest counted. */
export function idsText(ids: readonly string[], limit = 5): string {
  const shown = ids.slice(0, limit).map(idText).join(', ');
  return ids.length > limit ? `${shown} and ${ids.length - limit} more` : shown;
}

/** `1 task`, `2 tasks`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
