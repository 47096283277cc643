// Rewrites the generated parts of the docs: the JSON Schemas of the records this package owns in
// docs/store-format.md (from the built package), and examples/harness.ts as shown in
// docs/integrating.md. `node scripts/write-docs.mjs` after `build`; tests fail when a page is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MechaError } from '@mecha/errors';
import { jsonSchemaOf, ownSchemas } from './emit-json-schemas.mjs';

const page = fileURLToPath(new URL('../../../docs/store-format.md', import.meta.url));
const integrating = fileURLToPath(new URL('../../../docs/integrating.md', import.meta.url));
const example = fileURLToPath(new URL('../examples/harness.ts', import.meta.url));
const exampleStart = '<!-- example:harness:start -->';
const exampleEnd = '<!-- example:harness:end -->';
const start = '<!-- stores:schemas:start -->';
const end = '<!-- stores:schemas:end -->';

const about = {
  'distilled-record': 'one line of `learning/distilled.jsonl`',
  'rule-record': 'one line of `learning/rules.jsonl`',
  'shell-registration': 'one line of `runs/shells.jsonl`',
  manifest: '`manifest.json`',
  config: '`config.toml`, as the document TOML parses to',
};

/** The generated section, between its markers. */
export function schemasSection() {
  const blocks = Object.keys(ownSchemas).map((name) =>
    [
      `### \`${name}\`: ${about[name]}`,
      '',
      '<details><summary>JSON Schema</summary>',
      '',
      '```json',
      JSON.stringify(jsonSchemaOf(name), null, 2),
      '```',
      '',
      '</details>',
    ].join('\n'),
  );
  return [
    start,
    '',
    'Generated from the built package by `packages/stores/scripts/write-docs.mjs`.',
    '',
    ...blocks.flatMap((block) => [block, '']),
    end,
  ].join('\n');
}

/** The page with its generated section as it should be. */
export function renderedPage(text) {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1) throw new MechaError(`${page} has no ${start} … ${end} section`);
  return `${text.slice(0, from)}${schemasSection()}${text.slice(to + end.length)}`;
}

export const storeFormatPage = page;
export const integratingPage = integrating;

/** docs/integrating.md with the example as it is in examples/harness.ts. */
export function renderedIntegrating(text) {
  const from = text.indexOf(exampleStart);
  const to = text.indexOf(exampleEnd);
  if (from === -1 || to === -1)
    throw new MechaError(`${integrating} has no ${exampleStart} … ${exampleEnd} section`);
  const code = readFileSync(example, 'utf8');
  return `${text.slice(0, from)}${exampleStart}\n\`\`\`ts\n${code}\`\`\`\n${exampleEnd}${text.slice(to + exampleEnd.length)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(page, renderedPage(readFileSync(page, 'utf8')));
  writeFileSync(integrating, renderedIntegrating(readFileSync(integrating, 'utf8')));
  console.error(`wrote ${page} and ${integrating}`);
}
