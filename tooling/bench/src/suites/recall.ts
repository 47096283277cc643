import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { type Appraiser, openAppraiser } from '@mecha/gpu-appraiser';
import { createLocalModel, defaultThreads, type LocalModel } from '@mecha/local-model';
import { median, type ResultTable } from '../measure.js';
import type { BenchOptions, Suite } from './index.js';

// recall@k of the appraiser's recall on a generated bank, word overlap against embeddings side
// by side, through the real `recall` path (a memory on disk, the real model's embeddings).
//
// The bank: facts (who did what to what, when), each written in one of two phrasings that share
// only the name. A paraphrase query asks for a fact in the phrasing its report does not use,
// beside distractors in the query's own phrasing: it must be found. An id query asks for one of
// two reports that differ only by a ticket number, by that number: the seed warns that
// similarity may miss these (the number is one word of eight).

const names = ['Bob', 'Carol', 'Dan', 'Erin', 'Frank', 'Grace', 'Heidi', 'Ivan'];
const actions: readonly (readonly [string, string])[] = [
  ['fixed', 'repaired'],
  ['broke', 'damaged'],
  ['reviewed', 'inspected'],
  ['deployed', 'shipped'],
  ['deleted', 'removed'],
  ['migrated', 'moved'],
];
const objects: readonly (readonly [string, string])[] = [
  ['the login page', 'our sign-in screen'],
  ['the payments database', 'our billing store'],
  ['the build pipeline', 'our CI workflow'],
  ['the release notes', 'our changelog'],
  ['the search index', 'our lookup catalogue'],
  ['the onboarding emails', 'our welcome messages'],
  ['the backup job', 'our nightly snapshot'],
  ['the API keys', 'our access tokens'],
];
const times: readonly (readonly [string, string])[] = [
  ['after the outage', 'once service recovered'],
  ['before the launch', 'ahead of go-live'],
  ['on Monday', 'at the start of this week'],
];

interface Fact {
  readonly name: string;
  readonly action: number;
  readonly object: number;
  readonly time: number;
}

const phrase = (fact: Fact, form: 0 | 1): string =>
  `${fact.name} ${actions[fact.action]?.[form]} ${objects[fact.object]?.[form]} ${times[fact.time]?.[form]}.`;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

interface Query {
  readonly kind: 'paraphrase' | 'id';
  readonly text: string;
  /** The index in the bank of the report the query asks for. */
  readonly target: number;
}

/** The bank (texts in retention order) and its queries, the same for a seed. */
export function recallBank(
  seed: number,
  size = 200,
  paraphraseQueries = 40,
  idPairs = 20,
): { readonly texts: readonly string[]; readonly queries: readonly Query[] } {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const seen = new Set<string>();
  const facts: { fact: Fact; form: 0 | 1 }[] = [];
  while (facts.length < size - 2 * idPairs) {
    const fact = {
      name: names[pick(names.length)] as string,
      action: pick(actions.length),
      object: pick(objects.length),
      time: pick(times.length),
    };
    const key = JSON.stringify(fact);
    if (seen.has(key)) continue;
    seen.add(key);
    facts.push({ fact, form: next() < 0.5 ? 0 : 1 });
  }
  const entries: { text: string; query?: Omit<Query, 'target'> }[] = facts.map(
    ({ fact, form }, index) => ({
      text: phrase(fact, form),
      ...(index < paraphraseQueries
        ? { query: { kind: 'paraphrase' as const, text: phrase(fact, form === 0 ? 1 : 0) } }
        : {}),
    }),
  );
  for (let pair = 0; pair < idPairs; pair += 1) {
    const name = names[pick(names.length)] as string;
    const ticket = 4000 + pair * 7;
    const text = (id: number) => `${name} closed ticket ${id} in the tracker.`;
    entries.push({
      text: text(ticket),
      query: { kind: 'id', text: `What happened to ticket ${ticket}?` },
    });
    entries.push({ text: text(ticket + 1) });
  }
  // Retention order shuffled: ties break newest first, so order must carry no answer.
  for (let at = entries.length - 1; at > 0; at -= 1) {
    const other = pick(at + 1);
    [entries[at], entries[other]] = [
      entries[other] as (typeof entries)[0],
      entries[at] as (typeof entries)[0],
    ];
  }
  const queries: Query[] = [];
  entries.forEach((entry, index) => {
    if (entry.query) queries.push({ ...entry.query, target: index });
  });
  return { texts: entries.map((entry) => entry.text), queries };
}

interface Scored {
  readonly recallAt1: number;
  readonly recallAt5: number;
  readonly medianRank: number | undefined;
}

/** recall@1, recall@5 and the median rank (absent when most are not ranked at all). */
function score(ranks: readonly (number | undefined)[]): Scored {
  const found = (k: number) => ranks.filter((rank) => rank !== undefined && rank <= k).length;
  const known = ranks.map((rank) => rank ?? Number.POSITIVE_INFINITY);
  const middle = median(known);
  return {
    recallAt1: found(1) / ranks.length,
    recallAt5: found(5) / ranks.length,
    medianRank: Number.isFinite(middle) ? middle : undefined,
  };
}

async function runMethod(
  appraiser: Appraiser,
  queries: readonly Query[],
  sourceIds: readonly number[],
): Promise<{ ranks: Map<Query['kind'], (number | undefined)[]>; ms: number[]; method: string }> {
  const ranks = new Map<Query['kind'], (number | undefined)[]>([
    ['paraphrase', []],
    ['id', []],
  ]);
  const ms: number[] = [];
  let method = '';
  for (const query of queries) {
    const started = performance.now();
    const result = await appraiser.recall({ owner: 'bench', scope: 'bank', query: query.text });
    ms.push(performance.now() - started);
    if (result._tag === 'Left') throw new Error(result.left.message);
    const recalled = result.right;
    if (recalled.fallback) throw new Error(recalled.fallback);
    method = recalled.similarity;
    const at = recalled.ranked.findIndex((entry) => entry.sourceId === sourceIds[query.target]);
    ranks.get(query.kind)?.push(at === -1 ? undefined : at + 1);
  }
  return { ranks, ms, method };
}

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

async function recallAtK(options: BenchOptions): Promise<ResultTable> {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-bench-recall-'));
  let model: LocalModel | undefined;
  try {
    let modelPath = options.model;
    if (modelPath === undefined) {
      modelPath = join(dir, 'tiny.gguf');
      await writeTinyLlamaGguf({ path: modelPath, seed: 15, contextLength: 4096 });
    }
    model = createLocalModel(
      options.model === undefined
        ? { path: modelPath, threads: 1, gpu: false, contextSize: 1024 }
        : { path: modelPath, threads: defaultThreads(), contextSize: 1024 },
    );
    await model.load();
    const { texts, queries } = recallBank(31);
    const open = (name: string, embed: boolean) => {
      const appraiser = openAppraiser({
        directory: join(dir, name),
        ...(embed && model ? { embedder: model } : {}),
      });
      const ids = texts.map(
        (text) => appraiser.retainSource({ text, owner: 'bench', scope: 'bank' }).sourceId,
      );
      return { appraiser, ids };
    };
    const plain = open('words', false);
    const embedded = open('embeddings', true);
    // Every report embedded once before timing: the cache then serves them, as in a live memory.
    await embedded.appraiser.recall({ owner: 'bench', scope: 'bank', query: 'warm-up' });
    const words = await runMethod(plain.appraiser, queries, plain.ids);
    const vectors = await runMethod(embedded.appraiser, queries, embedded.ids);
    plain.appraiser.close();
    embedded.appraiser.close();
    const baseline = median(words.ms);
    const rows: string[][] = [];
    for (const [label, run] of [
      ['word overlap', words],
      [
        `embeddings (${options.model === undefined ? 'tiny random GGUF' : basename(modelPath)})`,
        vectors,
      ],
    ] as const) {
      for (const kind of ['paraphrase', 'id'] as const) {
        const ranks = run.ranks.get(kind) ?? [];
        const scored = score(ranks);
        rows.push([
          `${label} [${run.method}]`,
          kind === 'paraphrase' ? 'paraphrase (must be found)' : 'numeric id only (may be missed)',
          String(ranks.length),
          percent(scored.recallAt1),
          percent(scored.recallAt5),
          scored.medianRank === undefined ? 'not ranked' : String(scored.medianRank),
          kind === 'paraphrase' ? median(run.ms).toFixed(2) : '',
          kind === 'paraphrase' ? `${(median(run.ms) / baseline).toFixed(2)}×` : '',
        ]);
      }
    }
    return {
      title: `recall@k on a generated bank of ${texts.length} reports`,
      columns: [
        'Similarity',
        'Queries',
        'n',
        'recall@1',
        'recall@5',
        'Median rank',
        'Median ms per recall',
        'Ratio to word overlap',
      ],
      rows,
      notes: [
        `Bank seed 31: ${texts.length - 40} facts written in one of two phrasings that share only the name, and 20 pairs of reports that differ only by a ticket number. A paraphrase query is its fact in the other phrasing, beside distractors in the query's own; an id query asks what happened to one pair's ticket by its number. By chance a query's report is first 1 time in ${texts.length}.`,
        'Both through `Appraiser.recall` on a memory on disk (similarity floor 0, recall defaults on, no appraisals); the method in brackets is what recall reported. Times are per recall over the whole bank, every report already embedded (the warm-up embeds them once; the query is embedded each time).',
        options.model === undefined
          ? 'The embedding row uses the tiny random-weight GGUF, the only model on this machine (no network): its vectors carry no meaning, so its paraphrase figures are near chance and say nothing of a real embedding model. `pnpm --filter @mecha/bench bench recall --model PATH` runs the same bank with a real GGUF.'
          : `Embeddings from ${basename(modelPath)} (\`--model\`), threads ${defaultThreads()}, GPU when available.`,
      ],
    };
  } finally {
    await model?.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const recallSuite: Suite = {
  id: 'recall',
  title: 'Appraiser recall: recall@k, word overlap against embeddings',
  run: async (options) => [await recallAtK(options)],
};
