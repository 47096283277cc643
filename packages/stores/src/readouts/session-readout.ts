import { type AppraisalPorts, appraiseSession, type SessionAppraisal } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { type OwnerActRefusal, ownerRefused } from '../owner/owner-refusal.js';

/** One session's readout, found from its id or a unique prefix; else why not, render-ready. */
export async function sessionReadout(
  ports: AppraisalPorts,
  query: string,
): Promise<
  E.Either<
    OwnerActRefusal<'not_found' | 'ambiguous'>,
    Extract<SessionAppraisal, { readonly state: 'appraised' }>
  >
> {
  const found = await appraiseSession(ports, query);
  if (found.state === 'not_found') {
    return ownerRefused('not_found', `no session matches ${JSON.stringify(query)}`);
  }
  if (found.state === 'ambiguous') {
    const shown = found.candidates.slice(0, 5).join(', ');
    const more = found.candidates.length > 5 ? `, … ${found.candidates.length - 5} more` : '';
    return ownerRefused(
      'ambiguous',
      `${JSON.stringify(query)} matches ${found.candidates.length} sessions (${shown}${more}): give more of the id`,
    );
  }
  return E.right(found);
}
