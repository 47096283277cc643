import { type AppraisalPorts, appraiseSession, type SessionAppraisal } from '@mecha/appraisal-core';
import { type OwnerRefusal, ownerRefusal } from '../owner/owner-refusal.js';

/** One session's readout, found from its id or a unique prefix; else why not, render-ready. */
export async function sessionReadout(
  ports: AppraisalPorts,
  query: string,
): Promise<Extract<SessionAppraisal, { readonly state: 'appraised' }> | OwnerRefusal> {
  const found = await appraiseSession(ports, query);
  if (found.state === 'not_found') {
    return ownerRefusal('not_found', `no session matches ${JSON.stringify(query)}`);
  }
  if (found.state === 'ambiguous') {
    const shown = found.candidates.slice(0, 5).join(', ');
    const more = found.candidates.length > 5 ? `, … ${found.candidates.length - 5} more` : '';
    return ownerRefusal(
      'ambiguous',
      `${JSON.stringify(query)} matches ${found.candidates.length} sessions (${shown}${more}): give more of the id`,
    );
  }
  return found;
}
