import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metadataExtractor, openGraphStore, snapshotGraphFile } from '@mecha/graph';
import type { GraphAccess } from '../prune/graph-port.js';
import type { MemoryQueryBank } from '../prune/memory-query-bank.js';

/**
 * The real @mecha/graph behind the package's graph port, wired as apps/cli wires it. Type-checked
 * here, so a port that drifts from the real GraphStore fails the package's typecheck.
 */
export const realGraph: GraphAccess = {
  openGraph: (path) => openGraphStore({ path, extractor: metadataExtractor }),
  snapshotGraphFile,
};

type Relation = readonly [subject: string, predicate: string, object: string];

/**
 * The episodes of the test graph, each one session's memory, chosen so the ablation has one of
 * every verdict: s1 and s2 both say where Priya is (each redundant alone, not both at once); s3
 * answers two queries (keep); s4 says the lab server is in the wrong room (harmful); s5 says the
 * right room but cannot outvote s4 (redundant, and held back once s4 goes); s6 is never asked
 * about (unmeasured); s7 answers one query (weak).
 */
export const memoryGraphEpisodes: Readonly<Record<string, readonly Relation[]>> = {
  s1: [['Priya Nair', 'is at', 'Yale']],
  s2: [['Priya Nair', 'is at', 'Yale']],
  s3: [
    ['Grant Office', 'is in', 'Boston'],
    ['Grant Office', 'reports to', 'Dean Smith'],
  ],
  s4: [['Lab Server', 'is in', 'Room 12']],
  s5: [['Lab Server', 'is in', 'Room 14']],
  s6: [['Colour Team', 'owns', 'Blue Badge']],
  s7: [['Dana Lee', 'works at', 'Acme Labs']],
};

/** The held-out queries, each with the ground truth it rests on; the last has none. */
export const memoryGraphBank: MemoryQueryBank = {
  v: 1,
  queries: [
    {
      id: 'q-priya',
      subject: 'Priya Nair',
      predicate: 'is at',
      expected: 'Yale',
      basis: 'her staff page',
    },
    {
      id: 'q-grant-city',
      subject: 'Grant Office',
      predicate: 'is in',
      expected: 'Boston',
      basis: 'the grant letter',
    },
    {
      id: 'q-grant-dean',
      subject: 'grant office',
      predicate: 'reports to',
      expected: 'dean smith',
      basis: 'the org chart',
    },
    {
      id: 'q-lab',
      subject: 'Lab Server',
      predicate: 'is in',
      expected: 'Room 14',
      basis: 'the asset register',
    },
    {
      id: 'q-dana',
      subject: 'Dana Lee',
      predicate: 'works at',
      expected: 'Acme Labs',
      basis: 'her signature',
    },
    { id: 'q-hunch', subject: 'Dana Lee', predicate: 'reports to', expected: 'Priya Nair' },
  ],
};

/** Writes the test graph as a real SQLite file through @mecha/graph and closes it. */
export async function writeMemoryGraph(
  dir = mkdtempSync(join(tmpdir(), 'mecha-memory-graph-')),
  episodes: Readonly<Record<string, readonly Relation[]>> = memoryGraphEpisodes,
): Promise<string> {
  const path = join(dir, 'graph.db');
  const store = await openGraphStore({ path });
  try {
    for (const [sourceId, relations] of Object.entries(episodes)) {
      await store.upsert({
        kind: 'session',
        source: 'agent:mecha',
        source_id: sourceId,
        occurred_at: '2026-11-01 10:00:00',
        body: `session ${sourceId}`,
        meta: {
          relations: relations.map(([subject, predicate, object]) => ({
            subject,
            predicate,
            object,
          })),
        },
      });
    }
  } finally {
    await store.close();
  }
  return path;
}
