// Runs every benchmark suite (or those named on the command line), prints each table and
// rewrites that suite's section of docs/performance.md between its markers.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { renderTable } from './measure.js';
import { suites } from './suites/index.js';

const documentPath = fileURLToPath(new URL('../../../docs/performance.md', import.meta.url));
const args = process.argv.slice(2);
const modelAt = args.indexOf('--model');
if (modelAt !== -1 && args[modelAt + 1] === undefined) {
  console.error('--model needs a GGUF path');
  process.exit(2);
}
const options = modelAt === -1 ? {} : { model: args[modelAt + 1] as string };
const wanted = modelAt === -1 ? args : args.filter((_, at) => at !== modelAt && at !== modelAt + 1);
const selected = wanted.length ? suites.filter((suite) => wanted.includes(suite.id)) : suites;
if (selected.length === 0 && wanted.length > 0) {
  console.error(
    `no such suite: ${wanted.join(', ')} (have: ${suites.map((suite) => suite.id).join(', ')})`,
  );
  process.exit(2);
}

let document = existsSync(documentPath) ? readFileSync(documentPath, 'utf8') : '# Performance\n';
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
for (const suite of selected) {
  console.error(`▶ ${suite.id}: ${suite.title}`);
  const tables = await suite.run(options);
  const body = tables.map(renderTable).join('\n');
  process.stdout.write(`${body}\n`);
  const section = `<!-- bench:${suite.id}:start -->\n_Measured ${new Date().toISOString().slice(0, 10)} on ${machine}._\n\n${body}<!-- bench:${suite.id}:end -->`;
  const pattern = new RegExp(
    `<!-- bench:${suite.id}:start -->[\\s\\S]*?<!-- bench:${suite.id}:end -->`,
  );
  document = pattern.test(document)
    ? document.replace(pattern, section)
    : `${document.trimEnd()}\n\n## ${suite.title}\n\n${section}\n`;
}
writeFileSync(documentPath, document);
console.error(`wrote ${documentPath}`);
