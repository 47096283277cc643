import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import { indexSessionStores, readSessionStores } from '../ports/store-index.js';
import { type Dereference, dereference } from '../rules/counterfactual-reflection.js';
import type { ComparisonRecord, CounterfactualRecord } from '../schemas/comparisons.js';
import type { TextAppraisalRecord } from '../schemas/learning.js';
import type { SourceRead } from '../schemas/source-read.js';
import { readSession, type SessionReading } from './read-session.js';

/** A session's text appraisal as found: the newest on record, none, or a store not readable. */
export type TextAppraisalLookup =
  | { readonly state: 'found'; readonly record: TextAppraisalRecord }
  | { readonly state: 'none' }
  | { readonly state: 'unreadable' };

/**
 * A session's counterfactual reflections, oldest first, each with its dereference check:
 * whether its comparison is still on record saying what it quotes (`unknown` when the
 * comparison store could not be read). `unreadable` when the reflection store could not be read.
 */
export type CounterfactualLookup =
  | {
      readonly state: 'read' | 'partial';
      readonly reflections: readonly {
        readonly record: CounterfactualRecord;
        readonly check: Dereference | { readonly state: 'unknown' };
      }[];
    }
  | { readonly state: 'unreadable' };

/**
 * One session's appraisal: its reading (errors with cites, label, valence) and its text
 * appraisal; or why there is none — no session matched, or a prefix matched several.
 */
export type SessionAppraisal =
  | {
      readonly state: 'appraised';
      readonly reading: SessionReading;
      readonly textAppraisal: TextAppraisalLookup;
      readonly counterfactuals: CounterfactualLookup;
    }
  | { readonly state: 'not_found'; readonly query: string }
  | { readonly state: 'ambiguous'; readonly query: string; readonly candidates: readonly string[] };

function checkAgainst(
  record: CounterfactualRecord,
  comparisons: SourceRead<ComparisonRecord>,
): Dereference | { readonly state: 'unknown' } {
  if (comparisons.state === 'unreadable') return { state: 'unknown' };
  const check = dereference(record, comparisons.records);
  // A torn line may be the very comparison: missing from a partial store is not known missing.
  return check.state === 'missing' && comparisons.state === 'partial'
    ? { state: 'unknown' }
    : check;
}

/**
 * Appraises one session, named by its id or a unique prefix of it: reads every store once,
 * derives its reading and looks up its text appraisal. Nothing is written.
 */
export async function appraiseSession(
  ports: AppraisalPorts,
  query: string,
): Promise<SessionAppraisal> {
  const listing = await ports.sessions.list();
  let sessionId = query;
  if (listing.state !== 'unreadable') {
    const ids = listing.records.map((entry) => entry.sessionId);
    if (!ids.includes(query)) {
      const candidates = [...new Set(ids.filter((id) => id.startsWith(query)))].sort();
      if (candidates.length === 0) return { state: 'not_found', query };
      if (candidates.length > 1) return { state: 'ambiguous', query, candidates };
      sessionId = candidates[0] as string;
    }
  }
  const [transcript, stores, charter, appraisals, reflections, comparisons] = await Promise.all([
    ports.sessions.transcript(sessionId),
    readSessionStores(ports),
    ports.charter.lines(),
    ports.learning.textAppraisals(),
    ports.learning.counterfactuals(),
    ports.learning.comparisons(),
  ]);
  const counterfactuals: CounterfactualLookup =
    reflections.state === 'unreadable'
      ? { state: 'unreadable' }
      : {
          state: reflections.state,
          reflections: reflections.records
            .filter((record) => record.session_id === sessionId)
            .map((record) => ({
              record,
              check: checkAgainst(record, comparisons),
            })),
        };
  const evidence = indexSessionStores(stores).evidenceFor(sessionId, transcript);
  let textAppraisal: TextAppraisalLookup = { state: 'unreadable' };
  if (appraisals.state !== 'unreadable') {
    const own = appraisals.records
      .filter((record) => record.session_id === sessionId)
      .sort(
        (a, b) =>
          Date.parse(b.at) - Date.parse(a.at) || a.appraisal_id.localeCompare(b.appraisal_id),
      );
    const newest = own[0];
    // A store with a torn line cannot say "none": the missing appraisal may be on that line.
    if (newest !== undefined) textAppraisal = { state: 'found', record: newest };
    else if (appraisals.state === 'read') textAppraisal = { state: 'none' };
  }
  return {
    state: 'appraised',
    reading: readSession(evidence, charter),
    textAppraisal,
    counterfactuals,
  };
}
