import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedAnswer, scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { openAppraiser } from './appraiser.js';
import { type RecallCandidate, selectRecall } from './recall-selection.js';
import { cachedEmbedder, cosineMillionths, type Embedder, recallSimilarity } from './similarity.js';
import { wordOverlap } from './word-overlap.js';

// Recall by embeddings. The embedder here is scripted (a real embedding model cannot be fetched
// on this machine; the tiny GGUF's real embeddings are in embedding-on-tiny-model.test.ts): each
// text maps to a vector chosen by the test, so the semantics are exact.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A scripted embedder: known texts to their vectors, anything else to [0, 0, 1]; counts calls. */
function scriptedEmbedder(vectors: Record<string, readonly number[]>) {
  const asked: string[][] = [];
  const embedder: Embedder = {
    embed: async (texts) => {
      asked.push([...texts]);
      return texts.map((text) => vectors[text] ?? [0, 0, 1]);
    },
  };
  return { embedder, asked };
}

const answers = new Map<string, ScriptedAnswer>();
function setup(embedder?: Embedder) {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-embed-'));
  dirs.push(dir);
  const appraiser = openAppraiser({
    directory: dir,
    model: scriptedAppraiserModel((report) => answers.get(report) ?? { quotes: [] }),
    ...(embedder ? { embedder } : {}),
  });
  appraiser.setAppraisal('on');
  return appraiser;
}

const query = 'who fixed the card checkout';
const paraphrase = 'Bob repaired payment processing at our till.';
const unrelated = 'Carol watered office plants.';
const vectors = {
  [query]: [1, 0, 0],
  [paraphrase]: [0.9, 0.1, 0],
  [unrelated]: [0, 1, 0],
};

describe('recall by embeddings (scripted embedder)', () => {
  it('finds a paraphrase that shares no word with the query; word overlap does not', async () => {
    const { embedder } = scriptedEmbedder(vectors);
    const embedded = setup(embedder);
    const plain = setup();
    for (const appraiser of [embedded, plain]) {
      appraiser.retainSource({ text: paraphrase, owner: 'alice', scope: 'team' });
      appraiser.retainSource({ text: unrelated, owner: 'alice', scope: 'team' });
    }
    const byEmbedding = await embedded.recall({ owner: 'x', scope: 'team', query });
    expect(byEmbedding).toMatchObject({ _tag: 'Right', right: { similarity: 'embedding' } });
    if (byEmbedding._tag !== 'Right') return;
    expect(byEmbedding.right.ranked).toEqual([
      { sourceId: 1, score: cosineMillionths(vectors[query], vectors[paraphrase]) },
    ]);
    expect(byEmbedding.right.context.text).toContain(paraphrase);
    const byWords = await plain.recall({ owner: 'x', scope: 'team', query });
    expect(byWords).toMatchObject({
      _tag: 'Right',
      right: { similarity: 'word_overlap', ranked: [] },
    });
    expect(byWords._tag === 'Right' && 'fallback' in byWords.right).toBe(false);
    embedded.close();
    plain.close();
  });

  it("uses the model's own embeddings when it has them, and embeds each report once", async () => {
    const { embedder, asked } = scriptedEmbedder(vectors);
    const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-embed-'));
    dirs.push(dir);
    const model = scriptedAppraiserModel(() => ({ quotes: [] }));
    const appraiser = openAppraiser({ directory: dir, model: { ...model, embed: embedder.embed } });
    appraiser.retainSource({ text: paraphrase, owner: 'alice', scope: 'team' });
    const first = await appraiser.recall({ owner: 'x', scope: 'team', query });
    const again = await appraiser.recall({ owner: 'x', scope: 'team', query: 'payments' });
    expect(first).toMatchObject({ right: { similarity: 'embedding' } });
    expect(again).toMatchObject({ right: { similarity: 'embedding' } });
    expect(asked).toEqual([[query, paraphrase], ['payments']]);
    appraiser.close();
  });

  it('falls back to word overlap, saying why, when embedding fails', async () => {
    const appraiser = setup({
      embed: async () => {
        throw new Error('the device is gone');
      },
    });
    appraiser.retainSource({ text: 'Bob fixed the checkout.', owner: 'alice', scope: 'team' });
    const result = await appraiser.recall({ owner: 'x', scope: 'team', query: 'checkout' });
    expect(result).toMatchObject({
      _tag: 'Right',
      right: {
        similarity: 'word_overlap',
        fallback: 'embedding failed: the device is gone',
        ranked: [{ sourceId: 1 }],
      },
    });
    appraiser.close();
  });

  it('applies the floor to the embedding similarity before any priority', async () => {
    const strong = 'Bob restored the payments database after the outage.';
    answers.set(strong, {
      quotes: [strong],
      interpretation: { support: 1, benefit: 1_000_000, regard_gain: 900_000, evidence: strong },
    });
    const { embedder } = scriptedEmbedder({
      ...vectors,
      // Below a 0.5 floor against the query, and the only report with a strong appraisal.
      [strong]: [0.3, 1, 0],
    });
    const appraiser = setup(embedder);
    appraiser.retainSource({ text: strong, owner: 'alice', scope: 'team', subject: 'bob' });
    appraiser.retainSource({ text: paraphrase, owner: 'alice', scope: 'team', subject: 'bob' });
    await appraiser.run();
    appraiser.setLimits({ recallFloor: 500_000 });
    appraiser.applyPending();
    const result = await appraiser.recall({
      owner: 'x',
      scope: 'team',
      query,
      appraisal: { priority: 1_000_000 },
    });
    expect(result._tag === 'Right' && result.right.ranked.map((entry) => entry.sourceId)).toEqual([
      2,
    ]);
    appraiser.setLimits({ recallFloor: 0 });
    appraiser.applyPending();
    const open = await appraiser.recall({
      owner: 'x',
      scope: 'team',
      query,
      appraisal: { priority: 1_000_000 },
    });
    // With no floor the appraised report comes first: its priority outweighs its similarity.
    expect(open._tag === 'Right' && open.right.ranked.map((entry) => entry.sourceId)).toEqual([
      1, 2,
    ]);
    appraiser.close();
  });
});

const vector = fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 3, maxLength: 3 });
const nonZero = vector.filter((v) => v.some((x) => x !== 0));

describe('embedding similarity (properties)', () => {
  it('is in millionths 0..1,000,000, symmetric, scale-free, and 1,000,000 for a vector with itself', () => {
    fc.assert(
      fc.property(nonZero, nonZero, fc.integer({ min: 1, max: 1000 }), (a, b, k) => {
        const s = cosineMillionths(a, b);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1_000_000);
        expect(cosineMillionths(b, a)).toBe(s);
        expect(
          cosineMillionths(
            a.map((x) => x * k),
            b,
          ),
        ).toBe(s);
        expect(cosineMillionths(a, a)).toBe(1_000_000);
        expect(cosineMillionths(a, [...a, 1])).toBe(0);
      }),
    );
  });

  it('a cached embedder answers exactly what the embedder would, whatever the order of asking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 4 }), {
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 4 }),
        async (batches, size) => {
          const direct: Embedder = {
            embed: async (texts) => texts.map((text) => [text.charCodeAt(0), text.length]),
          };
          const cached = cachedEmbedder(direct, size);
          for (const batch of batches) {
            expect(await cached.embed(batch)).toEqual(await direct.embed(batch));
          }
        },
      ),
    );
  });

  it('over embeddings, a report is selected exactly when its similarity is above 0 and the floor, whatever its priority', async () => {
    const candidate = fc.record({
      vector,
      appraised: fc.boolean(),
      benefit: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
    });
    await fc.assert(
      fc.asyncProperty(
        nonZero,
        fc.array(candidate, { maxLength: 8 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }),
        fc.boolean(),
        async (queryVector, rows, floor, priority, recallDefaults) => {
          const texts = rows.map((_, index) => `report ${index}`);
          const byText = new Map<string, readonly number[]>(
            rows.map((row, index) => [texts[index] as string, row.vector]),
          );
          byText.set('query', queryVector);
          const measured = await recallSimilarity(
            { embed: async (asked) => asked.map((text) => byText.get(text) ?? []) },
            'query',
            texts,
          );
          expect(measured.method).toBe('embedding');
          const candidates = rows.map(
            (row, index): RecallCandidate => ({
              source: {
                id: index + 1,
                version: 1,
                actor: 'alice',
                subject: 'bob',
                text: texts[index] as string,
                taskId: null,
              },
              ...(row.appraised
                ? {
                    appraisal: {
                      assessmentId: index,
                      queueId: index,
                      relationshipId: index,
                      evidence: 'e',
                      consequence: 1,
                      confidence: null,
                      benefit: row.benefit,
                      harm: null,
                      arousal: null,
                      regardGain: null,
                      regardLoss: null,
                      trustGain: null,
                      trustLoss: null,
                      taskId: null,
                    },
                  }
                : {}),
            }),
          );
          const selected = selectRecall(
            candidates,
            { query: 'query', ...(priority === undefined ? {} : { appraisal: { priority } }) },
            { recallDefaults, floor, defaultPriority: 250_000 },
            measured.similarity,
          );
          const ids = new Set(selected.map((entry) => entry.sourceId));
          rows.forEach((row, index) => {
            const similar = cosineMillionths(queryVector, row.vector);
            expect(ids.has(index + 1)).toBe(similar > 0 && similar >= floor);
          });
          for (const entry of selected) {
            expect(entry.similarity).toBe(
              cosineMillionths(queryVector, byText.get(entry.group.source.text) ?? []),
            );
            expect(entry.score).toBeGreaterThanOrEqual(entry.similarity);
          }
        },
      ),
    );
  });

  it('without an embedder, similarity is word overlap', async () => {
    const measured = await recallSimilarity(undefined, 'payments outage', ['the payments']);
    expect(measured.method).toBe('word_overlap');
    expect(measured.similarity('payments outage', 'the payments')).toBe(
      wordOverlap('payments outage', 'the payments'),
    );
  });
});
