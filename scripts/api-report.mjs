// Writes or checks the API reports of a package with API Extractor (@microsoft/api-extractor):
// one report per entry point in the package's export map, read from the built declarations
// (dist/*.d.ts, what a harness author's compiler sees), checked in as api/<name>.api.md (and
// api/<name>-<subpath>.api.md for a subpath such as `./testing`). Each package's
// api-report.test.ts compares them with the build, so adding, removing or retyping an export
// fails until the report is updated. Build first (`pnpm turbo run build --filter=@mecha/x`),
// then from the repository root:
//
//   node scripts/api-report.mjs packages/stores           # check: exit 1 if a report is stale
//   node scripts/api-report.mjs packages/stores --write   # update after a deliberate change
//   node scripts/api-report.mjs --all [--write]           # every package under packages/
//
// With no folder it reads the current directory (a package script runs in its package).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** The entry points of the package at `packageDir`: its export map's keys with declarations. */
export function entryPoints(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const short = basename(manifest.name);
  return Object.entries(manifest.exports ?? {})
    .filter(([, target]) => typeof target === 'object' && target !== null && target.types)
    .map(([subpath, target]) => ({
      subpath,
      declarations: join(packageDir, target.types),
      report: join(
        packageDir,
        'api',
        subpath === '.'
          ? `${short}.api.md`
          : `${short}-${subpath.slice(2).replaceAll('/', '-')}.api.md`,
      ),
    }));
}

// The compiler settings API Extractor reads the declarations with: those of the build, with
// Node's types found in the package's own node_modules.
function compilerOptions(packageDir) {
  return {
    module: 'esnext',
    moduleResolution: 'bundler',
    target: 'es2022',
    lib: ['es2023'],
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [
      join(packageDir, 'node_modules', '@types'),
      join(repoRoot, 'node_modules', '@types'),
    ],
  };
}

/**
 * The API report of one entry point, generated into a temporary folder and returned as text,
 * with the messages API Extractor raised (an export's signature naming a type the entry does not
 * export is one: `ae-forgotten-export`, which the report also marks).
 */
export function entryReport(packageDir, entry) {
  if (!existsSync(entry.declarations)) {
    throw new Error(
      `api-report: ${relative(repoRoot, entry.declarations)} is missing; build the package first (pnpm turbo run build --filter=<package>)`,
    );
  }
  const scratch = mkdtempSync(join(tmpdir(), 'api-report-'));
  try {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: packageDir,
        newlineKind: 'lf',
        mainEntryPointFilePath: entry.declarations,
        compiler: {
          overrideTsconfig: {
            compilerOptions: compilerOptions(packageDir),
            files: [entry.declarations],
          },
        },
        apiReport: {
          enabled: true,
          reportFolder: scratch,
          reportTempFolder: join(scratch, 'temp'),
          reportFileName: 'report',
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          extractorMessageReporting: {
            default: { logLevel: 'warning' },
            // No release tags (@public, @beta) here: what the entry exports is public.
            'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
            'ae-undocumented': { logLevel: 'none', addToApiReportFile: false },
            'ae-forgotten-export': { logLevel: 'warning', addToApiReportFile: true },
            // A doc comment's {@link} to an internal name is the docs' business, not the surface's.
            'ae-unresolved-link': { logLevel: 'none', addToApiReportFile: false },
          },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
      configObjectFullPath: join(packageDir, 'api-extractor.json'),
      packageJsonFullPath: join(packageDir, 'package.json'),
    });
    const messages = [];
    const result = Extractor.invoke(config, {
      localBuild: true,
      messageCallback(message) {
        // console-* messages are API Extractor's own notes about the files it wrote.
        if (
          (message.logLevel === 'warning' || message.logLevel === 'error') &&
          !message.messageId.startsWith('console-')
        ) {
          messages.push(`${message.messageId}: ${message.text}`);
        }
        message.handled = true;
      },
    });
    if (result.compilerState === undefined && !result.succeeded) {
      throw new Error(
        `api-report: API Extractor failed on ${entry.declarations}: ${messages.join('; ')}`,
      );
    }
    const text = enumMembersSorted(readFileSync(join(scratch, 'report.api.md'), 'utf8'));
    return { text, messages };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Sorts each run of `name: "name";` lines: the members of an enum record such as zod's
 * `ZodEnum<{ a: "a"; … }>`. TypeScript writes them in the order it first met each string literal
 * while checking the program, which can differ between two builds of the same source (it did in
 * fresh clones); their order means nothing, so the report fixes one.
 */
export function enumMembersSorted(text) {
  const lines = text.split('\n');
  const isMember = (line) => {
    const match = /^\s*"?([\w$-]+)"?: "([^"]*)";$/.exec(line);
    return match !== null && match[1] === match[2];
  };
  for (let start = 0; start < lines.length; start += 1) {
    if (!isMember(lines[start])) continue;
    let end = start;
    while (end < lines.length && isMember(lines[end])) end += 1;
    const run = lines.slice(start, end).sort();
    lines.splice(start, run.length, ...run);
    start = end - 1;
  }
  return lines.join('\n');
}

/**
 * The reports of every entry of the package at `packageDir`: for each, where it is checked in,
 * the generated text, what is checked in now (`''` when nothing), and API Extractor's messages.
 */
export function apiReports(packageDir) {
  return entryPoints(packageDir).map((entry) => {
    const { text, messages } = entryReport(packageDir, entry);
    const current = existsSync(entry.report) ? readFileSync(entry.report, 'utf8') : '';
    return { subpath: entry.subpath, path: entry.report, text, current, messages };
  });
}

/**
 * The top-level exports an API Extractor report marks `// @public (undocumented)`: those with no doc
 * comment (members of an interface or class are not counted).
 */
export function undocumentedExports(text) {
  const names = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (!/^\/\/ (?:@\w+ )?\(undocumented\)$/.test(line)) return;
    let next = index + 1;
    while (lines[next]?.startsWith('//')) next += 1;
    const declared =
      /^export (?:declare )?(?:abstract )?(?:function|const|let|interface|type|class|enum|namespace) ([A-Za-z_$][\w$]*)/.exec(
        lines[next] ?? '',
      );
    if (declared) names.push(declared[1]);
  });
  return [...new Set(names)].sort();
}

function packagesUnder(root) {
  const dir = join(root, 'packages');
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => existsSync(join(path, 'package.json')));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const write = args.includes('--write');
  const dirs = args.includes('--all')
    ? packagesUnder(repoRoot)
    : [resolve(args.find((arg) => !arg.startsWith('--')) ?? '.')];
  for (const packageDir of dirs) {
    for (const report of apiReports(packageDir)) {
      const where = relative(repoRoot, report.path);
      for (const message of report.messages) console.error(`api-report: ${where}: ${message}`);
      if (report.text === report.current) continue;
      if (write) {
        mkdirSync(dirname(report.path), { recursive: true });
        writeFileSync(report.path, report.text);
        console.error(`api-report: wrote ${where}`);
      } else {
        console.error(`api-report: ${where} is stale; run with --write after a deliberate change`);
        process.exitCode = 1;
      }
    }
  }
}
