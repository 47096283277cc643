import {
  type AppraisalPorts,
  type PopulationOptions,
  selectPopulation,
} from '@mecha/appraisal-core';
import type { Progress } from './progress.js';

/**
 * The same ports, reporting to a progress bar: a listing says how many sessions the readout
 * will read (its population, selected exactly as the readout selects it) and every transcript
 * read is one step; a single pass counts every session it lists. Nothing read is changed.
 */
export function withProgress(
  ports: AppraisalPorts,
  progress: Progress,
  population?: PopulationOptions,
): AppraisalPorts {
  return {
    ...ports,
    sessions: {
      list: async () => {
        const listing = await ports.sessions.list();
        if (listing.state !== 'unreadable') {
          progress.total(
            population === undefined
              ? listing.records.length
              : selectPopulation(listing.records, population).members.length,
          );
        }
        return listing;
      },
      transcript: async (sessionId) => {
        const read = await ports.sessions.transcript(sessionId);
        progress.tick();
        return read;
      },
      // One pass: every listed session is a step, member or not.
      scan: (visitor) => {
        let counted = 0;
        return ports.sessions.scan({
          ...visitor,
          progress: (scanned, total) => {
            progress.total(total);
            for (; counted < scanned; counted += 1) progress.tick();
            visitor.progress?.(scanned, total);
          },
        });
      },
    },
  };
}
