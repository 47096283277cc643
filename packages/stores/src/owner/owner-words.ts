import { stripControl, stripControlLines } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { maxRecordBytes } from '../append-lines.js';
import { type OwnerActRefusal, ownerRefused } from './owner-refusal.js';

/**
 * The most an owner's words (an edited draft, an answer) may take as JSON: a record's limit
 * less room for the rest of the record (ids, times, the sender).
 */
export const maxOwnerWordsBytes = maxRecordBytes - 4 * 1024;

/** The owner's words as they are kept (line endings `\n`), or why they cannot be. */
export type OwnerWords = E.Either<OwnerActRefusal<'bad_request'>, string>;

/**
 * Checks words the owner typed on a surface before they are recorded: line endings become `\n`
 * (a browser's form sends `\r\n`), text with nothing to read in it (blank, or only control
 * characters) is refused, and so is text too long for a record. Nothing else is changed: the
 * words are kept as typed, and every surface strips control characters when it shows them.
 */
export function ownerWords(text: string | undefined, what: string): OwnerWords {
  const kept = (text ?? '').replace(/\r\n?/gu, '\n');
  if (stripControl(kept).trim() === '') {
    return ownerRefused('bad_request', `${what} is empty: type the words to keep`);
  }
  const bytes = Buffer.byteLength(JSON.stringify(kept), 'utf8');
  if (bytes > maxOwnerWordsBytes) {
    return ownerRefused(
      'bad_request',
      `${what} is too long to keep: ${kibibytes(bytes)} as recorded, and at most ${kibibytes(maxOwnerWordsBytes)} fits in one record; shorten it`,
    );
  }
  return E.right(kept);
}

const kibibytes = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('en')} KiB`;

/**
 * A draft's words as an edit box shows them: each line with its control characters stripped
 * (`stripControlLines`), lines joined with `\n`. Every surface that pre-fills an edit box uses
 * this, so that `decideDraft` can tell an untouched box from an edit.
 */
export function draftAsShown(text: string): string {
  return stripControlLines(text);
}

/**
 * Whether an edit (as kept, line endings `\n`) is the draft left as it was: the draft as
 * written, or the draft as its edit box showed it (control characters stripped). Either would
 * sign the run −1.0 for words the owner kept.
 */
export function isUntouchedEdit(edit: string, draft: string | undefined): boolean {
  if (draft === undefined) return false;
  return edit === draft.replace(/\r\n?/gu, '\n') || edit === draftAsShown(draft);
}
