import { createHash, randomBytes } from 'node:crypto';
import {
  type CompareOutcome,
  type ComparisonRecord,
  compareMoment,
  type Replayer,
  type ReplayPolicy,
} from '@mecha/appraisal-core';
import { refusal } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { homePorts } from '../home-ports.js';
import type { MechaHome } from '../open-home.js';
import type { OwnerActRefusal } from '../owner/owner-refusal.js';
import { checkReplayWorkspace, type ReplayWorkspace } from './probe-readout.js';

/** Options of {@link compareSession}. */
export interface CompareSessionOptions extends Omit<ReplayWorkspace, 'homePath'> {
  /** The session's id or a unique prefix of it. */
  readonly session: string;
  /** The moment (`steer:4`, `deny:2`, `draft:d-1`); the newest decided one when absent. */
  readonly at?: string;
  readonly policies: readonly ReplayPolicy[];
  readonly now: Date;
  readonly signal?: AbortSignal;
}

/** What `sessions compare` did: a comparison recorded, one already on record, or why not. */
export type CompareSessionResult = E.Either<
  OwnerActRefusal,
  {
    readonly state: 'recorded' | 'already';
    readonly record: ComparisonRecord;
    readonly moment: Extract<CompareOutcome, { state: 'compared' }>['moment'];
  }
>;

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/**
 * `sessions compare`: replays one decided moment of a session under a few policies, checks each
 * arm with the validator that fits the moment, and records the comparison in
 * `appraisals/comparisons.jsonl`. A decided comparison of the same moment under the same
 * policies is on record once: a second run finds it and drives nothing. A refused workspace, an
 * unknown session or moment, or an unreadable store writes nothing.
 */
export async function compareSession(
  home: MechaHome,
  replayer: Replayer,
  options: CompareSessionOptions,
): Promise<CompareSessionResult> {
  if (options.policies.length < 2) {
    return E.left(refusal('bad_request', 'a comparison needs at least two policies'));
  }
  const checked = checkReplayWorkspace({ ...options, homePath: home.path });
  if (E.isLeft(checked)) return checked;
  const ports = homePorts(home);
  const listing = await ports.sessions.list();
  if (listing.state === 'unreadable') {
    return E.left(refusal('unreadable', `the session store cannot be read (${listing.reason})`));
  }
  const ids = [...new Set(listing.records.map((entry) => entry.sessionId))];
  const candidates = ids.includes(options.session)
    ? [options.session]
    : ids.filter((id) => id.startsWith(options.session)).sort();
  if (candidates.length === 0) {
    return E.left(refusal('not_found', `no session matches ${JSON.stringify(options.session)}`));
  }
  if (candidates.length > 1) {
    return E.left(
      refusal(
        'ambiguous',
        `${JSON.stringify(options.session)} matches ${candidates.length} sessions (${candidates.slice(0, 5).join(', ')}): give more of the id`,
      ),
    );
  }
  const sessionId = candidates[0] as string;
  const [transcript, outbox, comparisons] = await Promise.all([
    ports.sessions.transcript(sessionId),
    ports.outbox.read(),
    home.appraisals.comparisons.read(),
  ]);
  const unreadable = (name: string, reason: string) =>
    E.left(refusal('unreadable', `the ${name} cannot be read (${reason})`));
  if (transcript.state === 'unreadable') return unreadable('transcript', transcript.reason);
  if (outbox.state === 'unreadable') return unreadable('outbox', outbox.reason);
  if (comparisons.state === 'unreadable') return unreadable('comparison store', comparisons.reason);
  const found = await compareMoment(sessionId, transcript.records, outbox.records, replayer, {
    ...(options.at === undefined ? {} : { at: options.at }),
    policies: options.policies,
    workspace: checked.right,
    now: options.now,
    comparisonId: `cmp-${randomBytes(6).toString('hex')}`,
    digest,
    existing: comparisons.records,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (found.state === 'no_moment') {
    const named = found.moments.length === 0 ? 'none' : found.moments.join(', ');
    return E.left(
      refusal(
        'not_found',
        options.at === undefined
          ? `session ${sessionId} has no decided moment to compare (a steer, a denial, a draft rewritten or rejected)`
          : `session ${sessionId} has no moment ${JSON.stringify(options.at)}; its decided moments: ${named}`,
      ),
    );
  }
  if (found.state === 'already') return E.right(found);
  const written = await home.appraisals.comparisons.append([found.record]);
  if (written._tag === 'Left') {
    return E.left(
      refusal('not_written', `the comparison could not be recorded: ${written.left.message}`),
    );
  }
  return E.right({ state: 'recorded', record: found.record, moment: found.moment });
}
