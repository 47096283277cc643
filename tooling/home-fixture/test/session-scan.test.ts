import { rmSync } from 'node:fs';
import type { SessionListing, SourceRead, TranscriptEvent } from '@mecha/appraisal-core';
import { openHome } from '@mecha/stores';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../src/__fixtures__/temp-dir.js';
import { generateHome } from '../src/generate-home.js';

// The session store's scan over generated homes (moved here from @mecha/stores, which cannot
// depend on the generator that depends on it); its tests over hand-written transcripts stay there.
const now = new Date('2027-01-01T00:00:00Z');

interface Visit {
  readonly member: SessionListing;
  readonly transcript: SourceRead<TranscriptEvent>;
}

async function scanAll(path: string, events?: readonly TranscriptEvent['type'][]) {
  const visits: Visit[] = [];
  const progress: [number, number][] = [];
  const listing = await openHome(path).sessions.scan({
    population: { now, includeTests: true },
    ...(events === undefined ? {} : { events }),
    progress: (scanned, total) => progress.push([scanned, total]),
    visit: (member, transcript) => visits.push({ member, transcript }),
  });
  return { listing, visits, progress };
}

describe('the session store scan', () => {
  it('lists and reads what list() and transcript() do', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 140 }),
        async (seed, sessions) => {
          const path = tempDir();
          // Torn last lines in one transcript in ten.
          generateHome({ path, seed, sessions, tornRate: 0.1 });
          const home = openHome(path);
          const { listing, visits, progress } = await scanAll(path);
          const listed = await home.sessions.list();
          expect(listing).toEqual(listed);
          const records = listed.state === 'unreadable' ? [] : listed.records;
          const members = records.filter(
            (entry) => entry.kind === 'ordinary' || entry.kind === 'test',
          );
          expect(visits.map((visit) => visit.member)).toEqual(members);
          for (const visit of visits) {
            expect(visit.transcript).toEqual(
              await home.sessions.transcript(visit.member.sessionId),
            );
          }
          expect(progress.at(-1)).toEqual([records.length, records.length]);
          rmSync(path, { recursive: true, force: true });
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
