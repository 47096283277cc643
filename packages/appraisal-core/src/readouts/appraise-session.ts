import type { AppraisalPorts } from '../ports/appraisal-ports.js';
import { indexSessionStores, readSessionStores } from '../ports/store-index.js';
import type { TextAppraisalRecord } from '../schemas/learning.js';
import { readSession, type SessionReading } from './read-session.js';

/** A session's text appraisal as found: the newest on record, none, or a store not readable. */
export type TextAppraisalLookup =
  | { readonly state: 'found'; readonly record: TextAppraisalRecord }
  | { readonly state: 'none' }
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
    }
  | { readonly state: 'not_found'; readonly query: string }
  | { readonly state: 'ambiguous'; readonly query: string; readonly candidates: readonly string[] };

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
  const [transcript, stores, charter, appraisals] = await Promise.all([
    ports.sessions.transcript(sessionId),
    readSessionStores(ports),
    ports.charter.lines(),
    ports.learning.textAppraisals(),
  ]);
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
  return { state: 'appraised', reading: readSession(evidence, charter), textAppraisal };
}
