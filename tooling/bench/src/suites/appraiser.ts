import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import {
  buildInterpretationGrammar,
  buildQuoteGrammar,
  openAppraiser,
  unsupportedInterpretation,
} from '@mecha/gpu-appraiser';
import { type CompletionResult, createLocalModel, createScriptedModel } from '@mecha/local-model';
import { getLlama } from 'node-llama-cpp';
import { measure, median, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

function folder(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'mecha-bench-appraiser-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Report-like text of about `bytes` bytes, seeded: words, names, numbers, punctuation. */
function report(bytes: number, seed: number): string {
  const words = [
    'Bob',
    'fixed',
    'the',
    'build',
    'after',
    'release',
    'and',
    'will',
    'write',
    'tests',
    'for',
    'ticket',
    'payments',
    'outage',
    'on',
    'Monday',
    'customer',
    'said',
    '"thanks"',
    'rollback',
  ];
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
  let text = '';
  while (text.length < bytes) {
    text += `${words[next() % words.length]}${next() % 9 === 0 ? `-${next() % 1000}` : ''}${next() % 11 === 0 ? '. ' : ' '}`;
  }
  return text.slice(0, bytes);
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1));

async function grammarOverhead(): Promise<ResultTable> {
  const dir = folder();
  try {
    const path = join(dir.path, 'tiny.gguf');
    await writeTinyLlamaGguf({ path, seed: 15, contextLength: 4096 });
    const model = createLocalModel({ path, threads: 1, gpu: false, contextSize: 4096 });
    await model.load();
    const text = report(600, 1);
    const quotes = text
      .split('. ')
      .filter((part) => part.length > 4)
      .slice(0, 6);
    const prompt = {
      system:
        'You appraise one report about a person from exact quotes of it. Answer with one JSON object.',
      user: `Quotes: ${JSON.stringify(quotes)}\n<report>\n${text}\n</report>`,
    };
    const grammars = {
      'call 2 grammar (interpretation)': buildInterpretationGrammar({
        quotes,
        correctionAllowed: true,
      }),
      'call 1 grammar (quotes of a 600-byte report)': buildQuoteGrammar(text),
    };
    const perToken = (results: CompletionResult[]) =>
      median(
        results.map(
          (result) => result.timings.generationMs / Math.max(1, result.tokens.completion - 1),
        ),
      );
    const rows: string[][] = [];
    const runs = 21;
    // Interleaved per seed, so a busy moment of the shared machine falls on every variant alike.
    const variants: [string, string | undefined][] = [
      ['no grammar (baseline)', undefined],
      ...Object.entries(grammars),
    ];
    const results = new Map<string, CompletionResult[]>(variants.map(([name]) => [name, []]));
    for (let seed = 0; seed < runs; seed += 1) {
      for (const [name, gbnf] of variants) {
        results.get(name)?.push(
          await model.complete({
            prompt,
            ...(gbnf ? { grammar: { gbnf } } : {}),
            maxTokens: 64,
            temperature: 0.9,
            seed,
          }),
        );
      }
    }
    const baseline = perToken(results.get('no grammar (baseline)') ?? []);
    for (const [name] of variants) {
      const value = perToken(results.get(name) ?? []);
      rows.push([name, String(runs), ms(value), `${(value / baseline).toFixed(2)}×`]);
    }
    await model.dispose();
    return {
      title: 'Grammar overhead per generated token (tiny GGUF, CPU, one thread)',
      columns: ['Generation', 'Runs', 'Median ms per token', 'Ratio to no grammar'],
      rows,
      notes: [
        "The same tiny random-weight model, chat prompt and sampling (temperature 0.9, seeds 0–20, the variants interleaved per seed), at most 64 tokens each; per token is the generation time after the first token divided by the tokens after it, so prompt evaluation and the grammar's one-time parse (next table) are left out. The call 1 grammar keeps many parse stacks open at each quote's start (one per place a quote may begin), which is where its per-token cost comes from; call 2's grammar is small. On this tiny model a token's decode is almost free, so the ratio is the grammar's cost at its largest share; with a real model the decode step dominates.",
      ],
    };
  } finally {
    dir.remove();
  }
}

async function grammarBuild(): Promise<ResultTable> {
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    progressLogs: false,
  });
  const rows: string[][] = [];
  for (const kb of [1, 2, 4, 8]) {
    const text = report(kb * 1024, kb);
    let gbnf = '';
    const build = await measure(
      `build ${kb} KB`,
      () => {
        gbnf = buildQuoteGrammar(text);
      },
      { samples: 5 },
    );
    const parse = await measure(`parse ${kb} KB`, () => llama.createGrammar({ grammar: gbnf }), {
      samples: 5,
    });
    rows.push([
      `${kb} KB`,
      (gbnf.length / 1024).toFixed(0),
      String(gbnf.split('\n').length),
      ms(build.median),
      ms(parse.median),
      `${(parse.median / build.median).toFixed(2)}×`,
    ]);
  }
  await llama.dispose();
  return {
    title: 'Call 1 grammar build time against report length',
    columns: [
      'Report',
      'Grammar (KB)',
      'Rules',
      'Build median (ms)',
      'llama.cpp parse median (ms)',
      'Parse / build',
    ],
    rows,
    notes: [
      "Build is `buildQuoteGrammar` (last-occurrence heads by one rolling common-prefix row, O(n²) time in the report's characters with the head capped at 32; then the shared extension chains and 16 list rules per start). Parse is node-llama-cpp's `createGrammar` on the result, the baseline measured in the same run. Reports are seeded report-like text; five samples each after a warm-up.",
    ],
  };
}

async function throughput(): Promise<ResultTable> {
  const sources = 200;
  const quotes = ['Bob fixed the build'];
  const answer = JSON.stringify({
    ...unsupportedInterpretation,
    support: 1,
    benefit: 500_000,
    confidence: 800_000,
    evidence: 'Bob fixed the build',
  });
  const scripted = () =>
    createScriptedModel((prompt) =>
      prompt.includes('You read one report') ? JSON.stringify(quotes) : answer,
    );
  const rows: string[][] = [];
  // Baseline: the scripted model's two calls per source alone, nothing stored.
  const model = scripted();
  const alone = await measure(
    'model alone',
    async () => {
      for (let index = 0; index < sources; index += 1) {
        await model.complete({
          prompt: { system: 'You read one report', user: `r${index}` },
          maxTokens: 512,
        });
        await model.complete({ prompt: { system: 'x', user: `r${index}` }, maxTokens: 512 });
      }
    },
    { samples: 3 },
  );
  const full = await measure(
    'appraiser',
    async () => {
      const dir = folder();
      try {
        const appraiser = openAppraiser({ directory: dir.path, model: scripted() });
        appraiser.setAppraisal('on');
        for (let index = 0; index < sources; index += 1) {
          appraiser.retainSource({
            text: `Bob fixed the build #${index}.`,
            owner: 'alice',
            scope: 'team',
            subject: 'bob',
          });
        }
        let done = 0;
        while (done < sources) done += (await appraiser.run()).items.length;
        appraiser.close();
      } finally {
        dir.remove();
      }
    },
    { samples: 3 },
  );
  const perMinute = (value: number) =>
    Math.round((sources / value) * 60_000).toLocaleString('en-US');
  rows.push([
    'scripted model alone (baseline)',
    String(sources),
    ms(alone.median),
    perMinute(alone.median),
    '1.00×',
  ]);
  rows.push([
    'retain + run through the appraiser',
    String(sources),
    ms(full.median),
    perMinute(full.median),
    `${(full.median / alone.median).toFixed(1)}×`,
  ]);
  return {
    title: "Sources per minute with the scripted model (the appraiser's own overhead)",
    columns: ['Work', 'Sources', 'Median (ms)', 'Sources per minute', 'Ratio to baseline'],
    rows,
    notes: [
      "The scripted model answers at once, so this is the appraiser's own cost: intake in one SQLite transaction per report, both grammars built, both answers parsed, the journal written and fdatasync'ed four times per source, and the result published in one transaction (SQLite `synchronous = FULL`). It is bounded by the disk's sync latency, not the CPU. A real model adds its generation time on top.",
    ],
  };
}

/** The appraiser: grammar overhead, grammar build time, and throughput without a model. */
export const appraiserSuite: Suite = {
  id: 'appraiser',
  title: 'GPU appraiser: grammars and throughput',
  run: async () => [await grammarOverhead(), await grammarBuild(), await throughput()],
};
