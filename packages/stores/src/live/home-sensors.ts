import type { Charter } from '@mecha/charter';
import {
  couldNotRead,
  type LiveSensors,
  pendingCommitments,
  type Reading,
  readValue,
} from '@mecha/homeostat';
import type { MechaHome } from '../home-context.js';

/** The machine sensors a harness may lend a run (`machineSensors()` from `@mecha/homeostat/node`). */
export type MachineSensors = Pick<LiveSensors, 'loadAverage1m' | 'memAvailableKb'>;

/**
 * The live sensors over a home: its clock, the three commitment stores (what waits on the owner)
 * and the charter, plus whatever machine sensors the harness lends. A machine sensor left out is
 * recorded as unread, never as zero.
 */
export function homeSensors(
  home: MechaHome,
  options: { readonly now: () => number; readonly machine?: MachineSensors },
): LiveSensors {
  return {
    now: options.now,
    ...options.machine,
    stores: async () => {
      const [outbox, questions, requests] = await Promise.all([
        home.outbox.read(),
        home.questions.read(),
        home.requests.read(),
      ]);
      return pendingCommitments({ outbox, questions, requests });
    },
    charter: async (): Promise<Reading<Charter>> => {
      const read = home.readCharter();
      return read.state === 'read' ? readValue(read.charter) : couldNotRead(read.reason);
    },
  };
}
