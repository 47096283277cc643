// Measures the built @mecha/local-model on the tiny generated GGUF: the import cost of the
// entry, the model load time, and tokens/second with and without a JSON-schema grammar at
// several thread counts. Run from tooling/bench after building @mecha/local-model:
//
//   node scripts/local-model-decode.mjs [threads…]   e.g. node scripts/local-model-decode.mjs 1 2 4
//
// Each configuration gets a time budget (MECHA_BENCH_BUDGET_MS, default 15000 ms); a generation
// still running at the end of it is aborted through its AbortSignal, so an oversubscribed
// thread count cannot hang the run. Nothing touches the network.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeTinyLlamaGguf } from '@mecha/fixtures';

const require = createRequire(import.meta.url);
const entry = require.resolve('@mecha/local-model');
const budgetMs = Number(process.env.MECHA_BENCH_BUDGET_MS ?? 15_000);
const threadCounts = process.argv.slice(2).map(Number);
if (threadCounts.length === 0) threadCounts.push(1, availableParallelism());

function importMs(specifier) {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  const runs = [];
  for (let i = 0; i < 5; i++) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    });
    runs.push(Number(out.trim()));
  }
  runs.sort((a, b) => a - b);
  return runs[2];
}

const schema = {
  type: 'object',
  properties: {
    label: { type: 'string', maxLength: 12 },
    act: { enum: ['released_unchanged', 'edited', 'rejected', 'closed', 'reopened', 'no_act'] },
    confident: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', maxLength: 6 }, maxItems: 3 },
  },
};

async function measure(model, grammar, deadline) {
  let tokens = 0;
  let ms = 0;
  let generations = 0;
  for (let i = 0; i < 20 && performance.now() < deadline; i++) {
    const signal = AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now())));
    const result = await model.complete({
      prompt: `Session ${i}: appraise it as JSON.\n`,
      maxTokens: grammar ? 256 : 64,
      temperature: 0.9,
      seed: i,
      signal,
      ...(grammar ? { grammar } : {}),
    });
    tokens += result.tokens.completion;
    ms += result.timings.promptMs + result.timings.generationMs;
    generations += 1;
  }
  return { generations, tokens, tokensPerSecond: ms > 0 ? (tokens / ms) * 1000 : 0 };
}

const { createLocalModel } = await import(pathToFileURL(entry).href);
const dir = await mkdtemp(join(tmpdir(), 'mecha-bench-'));
try {
  const path = join(dir, 'tiny.gguf');
  await writeTinyLlamaGguf({ path, seed: 42 });
  console.log(
    `machine: ${availableParallelism()} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `import @mecha/local-model (built entry): ${importMs(entry).toFixed(1)} ms (median of 5 fresh processes)`,
  );
  console.log(
    `import node-llama-cpp, for contrast:     ${importMs('node-llama-cpp').toFixed(1)} ms`,
  );
  const rows = [];
  for (const threads of threadCounts) {
    const model = createLocalModel({ path, threads, gpu: false });
    const info = await model.load();
    const free = await measure(model, undefined, performance.now() + budgetMs / 2);
    const constrained = await measure(
      model,
      { jsonSchema: schema },
      performance.now() + budgetMs / 2,
    );
    await model.dispose();
    rows.push({ threads, loadMs: info.loadMs, free, constrained });
    console.log(
      `threads=${threads}: load ${info.loadMs.toFixed(0)} ms; ` +
        `no grammar ${free.tokensPerSecond.toFixed(1)} tok/s (${free.tokens} tokens, ${free.generations} runs); ` +
        `grammar ${constrained.tokensPerSecond.toFixed(1)} tok/s (${constrained.tokens} tokens, ${constrained.generations} runs)`,
    );
  }
  if (process.env.MECHA_BENCH_JSON) console.log(JSON.stringify(rows));
} finally {
  await rm(dir, { recursive: true, force: true });
}
