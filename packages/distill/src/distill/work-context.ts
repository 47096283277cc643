import {
  indexSessionStores,
  readSessionStores,
  type SessionStoreIndex,
  type SourceRead,
  type TextAppraisalRecord,
} from '@mecha/appraisal-core';
import type { CharterLine } from '@mecha/charter';
import { homePorts, type MechaHome } from '@mecha/stores';
import { type GoalDirectory, goalDirectory } from '../resolve-goal.js';

/** What the sessions that need work share, read once per run and only when there is work. */
export interface WorkContext {
  readonly index: SessionStoreIndex;
  readonly charter: SourceRead<CharterLine>;
  readonly directory: GoalDirectory;
  /** The sessions that already have a text appraisal; undefined when the store is unreadable. */
  readonly appraised: ReadonlySet<string> | undefined;
  /** The text appraisals on record (none when the store is unreadable). */
  readonly appraisals: readonly TextAppraisalRecord[];
}

/** Reads the stores every distilled session's episode and appraisal draw on. */
export async function loadWorkContext(home: MechaHome): Promise<WorkContext> {
  const ports = homePorts(home);
  const [stores, charter, board, appraisals] = await Promise.all([
    readSessionStores(ports),
    ports.charter.lines(),
    ports.board.read(),
    home.appraisals.textAppraisals.read(),
  ]);
  return {
    index: indexSessionStores(stores),
    charter,
    directory: goalDirectory(charter, board, stores.requests),
    appraisals: appraisals.state === 'unreadable' ? [] : appraisals.records,
    appraised:
      appraisals.state === 'unreadable'
        ? undefined
        : new Set(appraisals.records.map((record) => record.session_id)),
  };
}
