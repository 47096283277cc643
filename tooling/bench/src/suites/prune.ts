import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type GraphAccess,
  graphEvaluator,
  planGraphPrune,
  type SealedQueryBank,
  sealQueryBank,
  snapshotGraph,
} from '@mecha/grader-verdicts';
import { metadataExtractor, openGraphStore, snapshotGraphFile } from '@mecha/graph';
import { measure, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

/** The real graph behind grader-verdicts' port, wired as `mecha verdicts prune --graph` wires it. */
const graph: GraphAccess = {
  openGraph: (path) => openGraphStore({ path, extractor: metadataExtractor }),
  snapshotGraphFile,
};

/**
 * A graph of `episodes` sessions over `queries` people: every person's place is told by two
 * sessions, so each is redundant alone and the plan holds one of each pair.
 */
async function graphOf(
  episodes: number,
  queries: number,
): Promise<{ dir: string; path: string; bank: SealedQueryBank }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-prune-'));
  const path = join(dir, 'graph.db');
  const store = await openGraphStore({ path });
  for (let index = 0; index < episodes; index += 1) {
    await store.upsert({
      kind: 'session',
      source: 'agent:mecha',
      source_id: `s${index}`,
      occurred_at: '2026-11-01',
      body: `session ${index}`,
      meta: {
        relations: [
          {
            subject: `Person ${index % queries}`,
            predicate: 'is at',
            object: `Place ${index % queries}`,
          },
        ],
      },
    });
  }
  await store.close();
  const bank = sealQueryBank({
    v: 1,
    queries: Array.from({ length: queries }, (_, index) => ({
      id: `q${index}`,
      subject: `Person ${index}`,
      predicate: 'is at',
      expected: `Place ${index}`,
      basis: 'generated with the graph',
    })),
  });
  return { dir, path, bank };
}

async function run(): Promise<readonly ResultTable[]> {
  const rows: string[][] = [];
  for (const [episodes, queries] of [
    [20, 10],
    [100, 50],
  ] as const) {
    const { dir, path, bank } = await graphOf(episodes, queries);
    try {
      // The baseline: one measurement, a fresh copy of the snapshot answering the whole bank.
      const snapshot = await snapshotGraph(path, graph);
      const one = await measure(
        'one measurement',
        () => graphEvaluator(snapshot, bank.queries, graph)(new Set()),
        { samples: 5 },
      );
      snapshot.dispose();
      let measurements = 0;
      let planned = 0;
      const dryRun = await measure(
        'dry run',
        async () => {
          const report = await planGraphPrune(path, bank, graph);
          measurements = report.evaluations;
          planned = report.plan?.memories.length ?? 0;
        },
        { samples: 3 },
      );
      rows.push([
        String(episodes),
        String(queries),
        String(measurements),
        String(planned),
        (dryRun.median / 1000).toFixed(2),
        one.median.toFixed(1),
        (dryRun.median / one.median).toFixed(0),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return [
    {
      title: '`mecha verdicts prune --graph` dry run against one measurement',
      columns: [
        'episodes',
        'queries',
        'measurements',
        'planned removals',
        'dry run, median (s)',
        'one measurement, median (ms)',
        'ratio',
      ],
      rows,
      notes: [
        'A dry run is planGraphPrune on a real SQLite graph file: the snapshot, the planted-poison self-test, the ablation of every memory a query reached and the proof of the proposals. One measurement (the baseline, timed in the same run) copies the snapshot, opens it and answers the whole bank. Medians of 3 dry runs and 5 measurements after one warm-up each. A measurement of the ablation also redacts its memories on its copy (a durable write the baseline does not make), so the ratio runs above the count of measurements; both grow with the memories the queries reach, not with the graph alone.',
      ],
    },
  ];
}

/** Memory ablation over a real graph file: what a pruning dry run costs. */
export const pruneSuite: Suite = {
  id: 'prune',
  title: 'Verdicts: memory ablation over a real graph',
  run,
};
