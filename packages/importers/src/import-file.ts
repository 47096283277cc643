import type { MechaHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { FilePass, type ImportedFrom } from './file-pass.js';
import type { ImportFailure, ImportOptions } from './import-history.js';
import type { LedgerEntry } from './import-ledger.js';
import { skipFile, type Totals } from './import-totals.js';
import { readLines, type SourceLine } from './read-lines.js';
import { resumePoint } from './resume-point.js';

// One file's import pass: from where the ledger left it to its end, into its session.

/**
 * Imports one source file's new lines (from `previous`, its ledger entry) into its session, and
 * adds what it did to `totals`: a file that is not a log of the tool, a copy of a log already
 * imported, a rewritten file or a changed transcript is left alone and reported instead.
 */
export async function importFile(
  home: MechaHome,
  options: ImportOptions,
  file: string,
  previous: LedgerEntry | undefined,
  totals: Totals,
  now: () => Date,
  /** Another source file the ledger says went into this session, if any (read only when asked). */
  importedFrom: ImportedFrom,
): Promise<E.Either<ImportFailure, void>> {
  const resume = resumePoint(home, file, previous, totals);
  if (resume === undefined) return E.right(undefined);
  const pass = new FilePass(home, options, file, totals, now, resume);
  let lines: Generator<SourceLine>;
  try {
    lines = readLines(file, { offset: resume.offset, linesBefore: resume.line });
  } catch (error) {
    skipFile(totals, file, `could not be read: ${(error as Error).message}`);
    return E.right(undefined);
  }
  try {
    const read = await pass.readAll(lines, previous === undefined, importedFrom);
    if (E.isLeft(read)) return read;
    if (read.right === 'left alone') return E.right(undefined);
  } finally {
    lines.return(undefined);
  }
  return pass.finish();
}
