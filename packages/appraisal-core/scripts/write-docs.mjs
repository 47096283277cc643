// Rewrites the generated sections of docs/appraisal.md from the built package: the
// contributions table, the label rules in order, and the reachability table with its line.
// `node scripts/write-docs.mjs` after `build`; a test fails when the committed doc is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const minus = '\u2212';

function cell(text) {
  return String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function signText(sign) {
  if (sign === 'recorded') return 'as recorded';
  if (sign === 0) return '0';
  return `${sign > 0 ? '+' : minus}${Math.abs(sign).toFixed(1)}`;
}

function visibleText(visible) {
  if (visible === true) return 'yes';
  if (visible === false) return 'no';
  return visible;
}

function table(columns, rows) {
  return [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The contributions section: every signing row, then every row that signs nothing. */
export function contributionsSection(api) {
  const entries = Object.entries(api.contributionTable);
  const signing = entries.filter(([, row]) => row.kind !== 'silent');
  const silent = entries.filter(([, row]) => row.kind === 'silent');
  const signingTable = table(
    [
      'Outcome',
      'Sign',
      'Channel',
      'Agency',
      'Visible',
      'Live',
      'Read from',
      'Rule',
      'Where the seed is silent',
      'Row',
    ],
    signing.map(([id, row]) => [
      row.row,
      signText(row.sign),
      row.channel,
      row.agency,
      visibleText(row.visible),
      row.live ? 'yes' : 'no',
      [row.source, ...row.alsoReads].join(', '),
      row.rule,
      row.choice ?? '',
      `\`${id}\``,
    ]),
  );
  const silentTable = table(
    ['Outcome', 'Read from', 'Why it signs nothing', 'Where the seed is silent', 'Row'],
    silent.map(([id, row]) => [row.row, row.source, row.rule, row.choice ?? '', `\`${id}\``]),
  );
  return `${signingTable}\n\nRecorded and deliberately signing nothing:\n\n${silentTable}`;
}

/** The label rules, in the order `deriveLabel` tries them. */
export function labelRulesSection(api) {
  return api.labelRules
    .map(
      (rule, index) =>
        `${index + 1}. **${rule.label}** (\`${rule.id}\`): ${rule.when} Said to the owner: “${rule.because}”.`,
    )
    .join('\n');
}

/** The reachability table and the readout's line, both derived from `reachability`. */
export function reachabilitySection(api) {
  const rows = Object.entries(api.reachability).map(([label, reach]) => [
    label,
    reach.producers.join(', '),
    reach.how,
  ]);
  return `${table(['Label', 'Producers today', 'How'], rows)}\n\nThe readout's line: _${api.reachabilityLine()}._`;
}

/** Replaces each generated section between its markers; a missing marker is an error. */
export function renderDocument(document, api) {
  const sections = {
    contributions: contributionsSection(api),
    'label-rules': labelRulesSection(api),
    reachability: reachabilitySection(api),
  };
  let result = document;
  for (const [name, body] of Object.entries(sections)) {
    const start = `<!-- generated:${name}:start -->`;
    const end = `<!-- generated:${name}:end -->`;
    const from = result.indexOf(start);
    const to = result.indexOf(end);
    if (from < 0 || to < from)
      throw new Error(`docs/appraisal.md has no ${start} … ${end} section`);
    result = `${result.slice(0, from + start.length)}\n${body}\n${result.slice(to)}`;
  }
  return result;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const api = await import(new URL('../dist/index.js', import.meta.url).href);
  const path = fileURLToPath(new URL('../../../docs/appraisal.md', import.meta.url));
  writeFileSync(path, renderDocument(readFileSync(path, 'utf8'), api));
  console.error(`wrote ${path}`);
}
