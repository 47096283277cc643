import type { SessionListing, SourceRead } from '@mecha/appraisal-core';
import {
  configIssueText,
  type DistilledRecord,
  type McpServerConfig,
  type MechaHome,
  refuseMissingHome,
} from '@mecha/stores';
import { findMcpServer } from '../graph-server.js';
import type { DistillRefusal } from './distill-report.js';

/** What a run will look at, decided before any session is read. */
export interface RunPlan {
  /** The graph server; absent only for a dry run, which never pushes. */
  readonly server: McpServerConfig | undefined;
  readonly listing: Exclude<SourceRead<SessionListing>, { readonly state: 'unreadable' }>;
  readonly ledger: Exclude<SourceRead<DistilledRecord>, { readonly state: 'unreadable' }>;
  readonly alreadyDistilled: number;
  readonly excluded: number;
  /** The sessions to look at, oldest first, after the ledger, the exclusions and the limit. */
  readonly considered: readonly SessionListing[];
}

const excludedKinds = new Set(['test', 'experiment']);

/**
 * Finds the graph server in `config.toml` (a dry run goes on without one), reads the session listing and the ledger, and picks
 * the sessions to look at: not yet in the ledger, not development or experiment sessions,
 * oldest first, at most `limit`. A run that cannot start says why.
 */
export async function planRun(
  home: MechaHome,
  serverName: string,
  limit: number | undefined,
  dryRun = false,
  only?: readonly string[],
): Promise<RunPlan | DistillRefusal> {
  // A home that does not exist is not an empty one: nothing is read as zero, nothing is made.
  const present = refuseMissingHome(home);
  if (present._tag === 'Left') {
    return { state: 'cannot_run', reason: 'no_home', message: present.left.message };
  }
  const config = home.readConfig();
  if (config._tag === 'Left') {
    return {
      state: 'cannot_run',
      reason: 'config_invalid',
      message: `config.toml has problems, so the graph server cannot be found: ${config.left.map(configIssueText).join('; ')}`,
    };
  }
  // A dry run pushes nothing, so it needs no graph server: it only says what would be done.
  const found = findMcpServer(config.right, serverName);
  if (found._tag === 'Left' && !dryRun) {
    return { state: 'cannot_run', reason: 'no_server', message: found.left.message };
  }

  const [listing, ledger] = await Promise.all([
    home.sessions.list(),
    home.learning.distilled.read(),
  ]);
  if (ledger.state === 'unreadable') {
    return {
      state: 'cannot_run',
      reason: 'ledger_unreadable',
      message: `the distill ledger cannot be read (${ledger.reason}), so nothing can tell which sessions are done; nothing was distilled`,
    };
  }
  if (listing.state === 'unreadable') {
    return {
      state: 'cannot_run',
      reason: 'sessions_unreadable',
      message: `the session store cannot be read: ${listing.reason}`,
    };
  }
  // A `failed` line counts one try and leaves the session for a later run.
  const done = new Set(
    ledger.records
      .filter((record) => record.outcome !== 'failed')
      .map((record) => record.session_id),
  );
  let alreadyDistilled = 0;
  let excluded = 0;
  const waiting: SessionListing[] = [];
  const wanted = only === undefined ? undefined : new Set(only);
  for (const entry of listing.records) {
    if (wanted !== undefined && !wanted.has(entry.sessionId)) continue;
    if (done.has(entry.sessionId)) alreadyDistilled += 1;
    else if (entry.kind !== undefined && excludedKinds.has(entry.kind)) excluded += 1;
    else waiting.push(entry);
  }
  waiting.sort(
    (a, b) =>
      Date.parse(a.startedAt) - Date.parse(b.startedAt) || a.sessionId.localeCompare(b.sessionId),
  );
  const considered = limit === undefined ? waiting : waiting.slice(0, Math.max(0, limit));
  const server = found._tag === 'Right' ? found.right : undefined;
  return { server, listing, ledger, alreadyDistilled, excluded, considered };
}
