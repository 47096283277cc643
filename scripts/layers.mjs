// The layer graph of the workspace, drawn from the imports: every `@mecha/*` import in every
// workspace package's code, checked against the layers below. A package's own code (not its
// tests or runnable examples) may import only packages of a lower layer; its tests and examples
// may also import packages of the
// same or a higher layer (the real stores behind an adapter's test), but never an app; every
// import is declared in package.json; and no file reaches into another workspace package's
// folder by a relative path (but the listed exceptions). From the repository
// root:
//
//   node scripts/layers.mjs            # check: print the violations, exit 1 if any
//   node scripts/layers.mjs --write    # also rewrite the generated block of docs/ARCHITECTURE.md
//
// tooling/repo-checks runs the check as a test, so npm test fails on an upward import or a
// stale docs/ARCHITECTURE.md block.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsIn } from './export-usage.mjs';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * The layers, lowest first. A package's code imports only from layers below its own. Changing a
 * layer is a design decision: say why in docs/ARCHITECTURE.md.
 */
export const layers = [
  {
    name: 'base',
    packages: ['@mecha/errors'],
    what: 'the branded error and the two failure shapes',
  },
  {
    name: 'rules and engines',
    packages: ['@mecha/charter', '@mecha/local-model', '@mecha/graph', '@mecha/grader-verdicts'],
    what: 'pure charter rules (browser-safe); the model loader; the graph server; the graders',
  },
  {
    name: 'core',
    packages: ['@mecha/appraisal-core'],
    what: 'domain types and every appraisal rule, over ports (browser-safe, no fs)',
  },
  { name: 'sensors', packages: ['@mecha/homeostat'], what: 'run conditions, guilt, briefs' },
  {
    name: 'home and readers',
    packages: ['@mecha/stores', '@mecha/replay', '@mecha/otel', '@mecha/gpu-appraiser'],
    what: 'the on-disk home and owner acts; replayers; OpenTelemetry export; the report appraiser',
  },
  {
    name: 'fixtures',
    packages: ['@mecha/fixtures'],
    what: 'a tiny model, a graph server, a seeded realistic home (one module per store; `mecha demo`, tests, benchmarks)',
  },
  {
    name: 'pipelines and adapters',
    packages: [
      '@mecha/distill',
      '@mecha/importers',
      '@mecha/ai-sdk',
      '@mecha/claude-agent-sdk',
      '@mecha/langchain',
      '@mecha/openai-agents',
    ],
    what: 'distillation into the graph; other CLIs’ logs; one adapter per agent SDK',
  },
  {
    name: 'surfaces',
    packages: ['@mecha/web', '@mecha/slack'],
    what: 'the board and the Slack app',
  },
  {
    name: 'command',
    packages: ['@mecha/cli'],
    what: 'the `mecha` command, which hosts both surfaces',
  },
  {
    name: 'tooling',
    packages: ['@mecha/bench', '@mecha/mutation', '@mecha/repo-checks'],
    what: 'benchmarks, mutation testing, the repository checks',
  },
];

/**
 * Files allowed to reach into another package's folder by a relative path, each with why. Every
 * entry is a debt: the check fails when one no longer does so, so the list cannot go stale.
 */
export const relativeReachExceptions = new Map([
  [
    'tooling/bench/src/suites/graph-team.ts',
    "starts the graph's own test servers from packages/graph/src/__fixtures__, which the graph does not publish",
  ],
]);

const codeFile = /\.(?:[cm]?[jt]sx?)$/;
const skipped = new Set(['node_modules', 'dist', '.turbo', '.vitest', 'coverage', '.git']);

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (skipped.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (codeFile.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The workspace packages (packages/*, apps/*, tooling/* but the config presets). */
export function workspacePackages(root = repoRoot) {
  return ['packages', 'apps', 'tooling']
    .flatMap((group) => {
      const dir = join(root, group);
      return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
    })
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      return {
        dir,
        name: manifest.name,
        dependencies: new Set([
          ...Object.keys(manifest.dependencies ?? {}),
          ...Object.keys(manifest.peerDependencies ?? {}),
        ]),
        devDependencies: new Set(Object.keys(manifest.devDependencies ?? {})),
      };
    });
}

const isTestFile = (path) =>
  /\.test(?:-d)?\.[cm]?[jt]sx?$/.test(path) ||
  /(?:^|[/\\])(?:test|__fixtures__|__tests__|examples)[/\\]/.test(path);

/**
 * The edges (package → imported package, with the files, split into code and tests) and every
 * violation of the rules above, as sentences.
 */
export function layerGraph({
  root = repoRoot,
  table = layers,
  exceptions = relativeReachExceptions,
} = {}) {
  const packages = workspacePackages(root);
  const rank = new Map();
  table.forEach((layer, index) => {
    for (const name of layer.packages) rank.set(name, index);
  });
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
  const apps = new Set(
    packages.filter((pkg) => relative(root, pkg.dir).startsWith(`apps${sep}`)).map((p) => p.name),
  );
  const violations = [];
  const reached = new Set();
  const edges = new Map(); // "from→to" -> {from, to, code: Set(file), tests: Set(file)}
  for (const pkg of packages) {
    if (!rank.has(pkg.name)) {
      violations.push(`${pkg.name} is in no layer (scripts/layers.mjs)`);
      continue;
    }
    const folders = [pkg.dir];
    for (const file of folders.flatMap((dir) => walk(dir))) {
      const where = relative(root, file);
      const test = isTestFile(relative(pkg.dir, file));
      const code = readFileSync(file, 'utf8');
      for (const line of code.matchAll(/(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = resolve(dirname(file), line[1]);
        const owner = packages.find(
          (other) => other !== pkg && (target === other.dir || target.startsWith(other.dir + sep)),
        );
        if (owner !== undefined) reached.add(where);
        if (owner !== undefined && !exceptions.has(where)) {
          violations.push(
            `${where} reaches into ${relative(root, owner.dir)} by a relative path (${line[1]})`,
          );
        }
      }
      if (!code.includes('@mecha/')) continue;
      for (const specifier of importsIn(code, file).keys()) {
        const target = specifier.split('/').slice(0, 2).join('/');
        if (target === pkg.name || !byName.has(target)) continue;
        const key = `${pkg.name}→${target}`;
        if (!edges.has(key))
          edges.set(key, { from: pkg.name, to: target, code: new Set(), tests: new Set() });
        edges.get(key)[test ? 'tests' : 'code'].add(where);
        // The pack check (scripts/pack-check.mjs) checks what a published package's build
        // needs at run time; here an import must only be declared (the CLI bundles the board
        // and the Slack app, so it declares them as devDependencies).
        if (!pkg.dependencies.has(target) && !pkg.devDependencies.has(target)) {
          violations.push(`${where} imports ${target}, which ${pkg.name} does not declare`);
        }
        if (!rank.has(target)) continue;
        if (!test && rank.get(target) >= rank.get(pkg.name)) {
          violations.push(
            `${where} imports ${target} (layer '${table[rank.get(target)].name}'), not below ${pkg.name} (layer '${table[rank.get(pkg.name)].name}')`,
          );
        }
        if (
          test &&
          apps.has(target) &&
          !apps.has(pkg.name) &&
          rank.get(pkg.name) < rank.get(target)
        ) {
          violations.push(`${where} (a test of ${pkg.name}) imports the app ${target}`);
        }
      }
    }
  }
  for (const [file, why] of exceptions) {
    if (!reached.has(file)) {
      violations.push(
        `${file} no longer reaches into another package (${why}): drop its exception`,
      );
    }
  }
  return {
    edges: [...edges.values()].sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : 1)),
    violations,
  };
}

const begin = '<!-- layers:begin (generated by `node scripts/layers.mjs --write`; do not edit) -->';
const end = '<!-- layers:end -->';

/** The generated block of docs/ARCHITECTURE.md: the layers and the edges the code has. */
export function layerBlock({ root = repoRoot, table = layers } = {}) {
  const { edges } = layerGraph({ root, table });
  const short = (name) => name.replace('@mecha/', '');
  const lines = [begin, '', '| layer | packages | what |', '| --- | --- | --- |'];
  table
    .map((layer, index) => ({ layer, index }))
    .reverse()
    .forEach(({ layer, index }) => {
      lines.push(
        `| ${index} ${layer.name} | ${layer.packages.map((p) => `\`${short(p)}\``).join(', ')} | ${layer.what} |`,
      );
    });
  lines.push(
    '',
    'What each package imports (its code; then, in brackets, what only its tests add):',
    '',
  );
  const from = [...new Set(edges.map((edge) => edge.from))].sort();
  for (const name of from) {
    const mine = edges.filter((edge) => edge.from === name);
    const code = mine.filter((edge) => edge.code.size > 0).map((edge) => short(edge.to));
    const tests = mine.filter((edge) => edge.code.size === 0).map((edge) => short(edge.to));
    lines.push(
      `- \`${short(name)}\` → ${code.length === 0 ? '(none)' : code.join(', ')}${tests.length === 0 ? '' : ` [tests: ${tests.join(', ')}]`}`,
    );
  }
  lines.push('', end);
  return lines.join('\n');
}

/** The ARCHITECTURE.md text with its generated block replaced by `block`. */
export function withBlock(text, block) {
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  if (start < 0 || stop < start) throw new Error('docs/ARCHITECTURE.md has no layers block');
  return text.slice(0, start) + block + text.slice(stop + end.length);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { violations } = layerGraph();
  for (const violation of violations) console.error(`layers: ${violation}`);
  const docPath = join(repoRoot, 'docs', 'ARCHITECTURE.md');
  const doc = readFileSync(docPath, 'utf8');
  const fresh = withBlock(doc, layerBlock());
  if (process.argv.includes('--write')) {
    writeFileSync(docPath, fresh);
  } else if (fresh !== doc) {
    console.error('layers: docs/ARCHITECTURE.md is stale; run node scripts/layers.mjs --write');
    process.exitCode = 1;
  }
  if (violations.length > 0) process.exitCode = 1;
}
