import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { createDeviceScheduler, createLocalModel, type LocalModel } from '@mecha/local-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppraiser } from './appraiser.js';

// The real path: node-llama-cpp loads the tiny random-weight GGUF generated here, and recall
// ranks by the embeddings of that model (its own embedding context beside the completion one).
// The model knows nothing, so the test asks only what any model's embeddings must give: the
// same text embeds the same, different texts differently. One thread: see local-model.
let dir: string;
let model: LocalModel;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mecha-appraiser-embed-gguf-'));
  const path = join(dir, 'tiny.gguf');
  await writeTinyLlamaGguf({ path, seed: 15, contextLength: 4096 });
  model = createLocalModel({ path, threads: 1, gpu: false, contextSize: 1024 });
  await model.load();
});

afterAll(async () => {
  await model?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const reports = [
  'Bob restored the payments database after the outage.',
  'Carol reviewed the onboarding copy on Tuesday.',
  'Dan moved the build to the new runners.',
];

describe('recall on the tiny GGUF', () => {
  it("ranks by the loaded model's embeddings: a report equal to the query comes first at 1,000,000", async () => {
    const vectors = await model.embed([reports[0] as string, reports[0] as string, 'another']);
    expect(vectors[0]?.length).toBeGreaterThan(0);
    expect(vectors[1]).toEqual(vectors[0]);
    expect(vectors[2]).not.toEqual(vectors[0]);

    const appraiser = openAppraiser({ directory: join(dir, 'memory'), model });
    // The matching report is the oldest: were every embedding alike, the newest would win the tie.
    for (const text of reports) appraiser.retainSource({ text, owner: 'alice', scope: 'team' });
    const result = await appraiser.recall({
      owner: 'x',
      scope: 'team',
      query: reports[0] as string,
    });
    expect(result).toMatchObject({ _tag: 'Right', right: { similarity: 'embedding' } });
    if (result._tag !== 'Right') return;
    expect(result.right.ranked[0]).toEqual({ sourceId: 1, score: 1_000_000 });
    expect(result.right.ranked.slice(1).every((entry) => entry.score < 1_000_000)).toBe(true);
    appraiser.close();
  });

  it('embeds through a device scheduler too, and a text past the embedding context by its first tokens', async () => {
    const device = createDeviceScheduler(model);
    const appraiser = openAppraiser({ directory: join(dir, 'memory-2'), model: device });
    const long = `${'payments outage '.repeat(400)}end`;
    appraiser.retainSource({ text: long, owner: 'alice', scope: 'team' });
    const result = await appraiser.recall({ owner: 'x', scope: 'team', query: 'payments outage' });
    expect(result).toMatchObject({ _tag: 'Right', right: { similarity: 'embedding' } });
    expect(result._tag === 'Right' && result.right.ranked.map((entry) => entry.sourceId)).toEqual([
      1,
    ]);
    appraiser.close();
  });
});
