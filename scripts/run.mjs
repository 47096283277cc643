// The repository's entry points, runnable with only Node.js and npm on the machine:
//   npm test   — install, build, typecheck, lint, every test, then the pack check
//   npm run demo — install, build the CLI, run `mecha demo`
//   npm run test:changed — the inner loop: typecheck and test only the packages changed since a
//                          base (main by default; `npm run test:changed -- <ref>`)
//   npm run build / npm run bench
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packCheck } from './pack-check.mjs';
import { pnpmEnv, pnpmSpec, runPnpm } from './pnpm.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const mode = process.argv[2];
const started = Date.now();

function step(title) {
  process.stdout.write(`\n▶ ${title}\n`);
}

function seconds() {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

function install() {
  step(`install (${pnpmSpec}, frozen lockfile)`);
  const status = runPnpm(['install', '--frozen-lockfile'], { cwd: root });
  if (status !== 0) {
    console.error(`\nmecha: the install failed (exit ${status}); nothing was built.`);
    process.exit(status);
  }
}

// The web board's browser tests drive Debian's chromium (Playwright's own browser download is
// blocked on these machines).
const chromiumPath = '/usr/bin/chromium';
function ensureChromium() {
  ensureAptPackage({
    name: 'chromium',
    found: () => existsSync(chromiumPath),
    needed: `the web board's browser tests need ${chromiumPath}`,
    purpose: 'the browser tests',
    placed: `so ${chromiumPath} exists`,
  });
}

// The graph's store suites run against a real PostgreSQL server they start themselves (initdb
// into a temporary folder), so its server binaries must be on the machine. Found where the
// graph's tests look (packages/graph/src/__fixtures__/postgres-server.ts).
function postgresBinariesFound() {
  if (process.env.MECHA_PG_BIN && existsSync(join(process.env.MECHA_PG_BIN, 'initdb'))) return true;
  const base = '/usr/lib/postgresql';
  if (
    existsSync(base) &&
    readdirSync(base).some((version) => existsSync(join(base, version, 'bin', 'initdb')))
  ) {
    return true;
  }
  return spawnSync('sh', ['-c', 'command -v initdb'], { stdio: 'ignore' }).status === 0;
}

function ensurePostgres() {
  ensureAptPackage({
    name: 'postgresql',
    found: postgresBinariesFound,
    needed: "the graph's tests need PostgreSQL's server binaries (initdb, pg_ctl)",
    purpose: 'the graph tests',
    placed: 'so initdb is under /usr/lib/postgresql/*/bin',
  });
}

/**
 * Installs a Debian package the tests need when `found()` says it is missing and we are root
 * (apt's index is updated once per run); otherwise the run stops here with the one line that
 * says what to do.
 */
let aptUpdated = false;
function ensureAptPackage({ name, found, needed, purpose, placed }) {
  if (found()) return;
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!asRoot) {
    console.error(
      `\nmecha: ${needed}: run 'sudo apt-get install -y ${name}' (Debian/Ubuntu) and npm test again.`,
    );
    process.exit(1);
  }
  step(`install ${name} for ${purpose} (apt-get, as root)`);
  const apt = (args) =>
    spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status;
  const updated = aptUpdated || apt(['update']) === 0;
  aptUpdated ||= updated;
  if (!updated || apt(['install', '-y', name]) !== 0 || !found()) {
    console.error(
      `\nmecha: installing ${name} through apt failed; install it (apt-get install -y ${name}) ${placed}, and npm test again.`,
    );
    process.exit(1);
  }
}

function workspaceDirs() {
  return ['packages', 'apps', 'tooling', 'tooling/config'].flatMap((group) => {
    const dir = join(root, group);
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((name) => join(dir, name))
      .filter((path) => existsSync(join(path, 'package.json')));
  });
}

function testSummaries() {
  const rows = [];
  for (const dir of workspaceDirs()) {
    const file = join(dir, '.vitest', 'results.json');
    const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (!existsSync(file)) continue;
    try {
      const result = JSON.parse(readFileSync(file, 'utf8'));
      rows.push({
        name,
        passed: result.numPassedTests,
        // A file that failed to load has no tests of its own: count it as one failure.
        failed:
          result.numFailedTests +
          result.testResults.filter(
            (file) => file.status === 'failed' && file.assertionResults.length === 0,
          ).length,
        skipped: result.numPendingTests + result.numTodoTests,
        failures: failureLines(dir, result),
      });
    } catch {
      rows.push({ name, passed: 0, failed: 1, skipped: 0, unreadable: true });
    }
  }
  return rows;
}

/**
 * One line per failed test (file, title, the first line of its message), so that the summary at
 * the end of a long log, often all that is kept, still says what failed.
 */
function failureLines(dir, result) {
  const lines = [];
  for (const file of result.testResults) {
    const where = relative(dir, file.name);
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      lines.push(`${where}: did not load: ${firstLine(file.message)}`);
    }
    for (const test of file.assertionResults) {
      if (test.status !== 'failed') continue;
      lines.push(
        `${where} > ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`,
      );
    }
  }
  return lines;
}

const colourCodes = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function firstLine(text) {
  const line = String(text ?? '')
    .replace(colourCodes, '')
    .split('\n')
    .find((part) => part.trim() !== '');
  return (line ?? '(no message)').trim().slice(0, 300);
}

/**
 * The suite's own temporary folder: every test process gets it as TMPDIR (turbo passes TMPDIR
 * through, see turbo.json), so what a test leaves behind is found there, whatever else runs on
 * the machine at the same time. `left()` names the `mecha-*` entries left in it (each test
 * cleans up what it made), then the folder is removed.
 */
function testTempFolder() {
  const path = mkdtempSync(join(tmpdir(), 'mecha-test-tmp-'));
  return {
    path,
    left() {
      const names = readdirSync(path).filter((name) => name.startsWith('mecha-'));
      rmSync(path, { recursive: true, force: true });
      return names;
    },
  };
}

function clearTestResults() {
  for (const dir of workspaceDirs()) rmSync(join(dir, '.vitest'), { recursive: true, force: true });
}

if (mode === 'test') {
  ensureChromium();
  ensurePostgres();
  install();
  clearTestResults();
  step('build, typecheck, lint, test (turbo)');
  const temp = testTempFolder();
  const turbo = runPnpm(
    [
      'turbo',
      'run',
      'build',
      'typecheck',
      'lint',
      'test',
      '--continue=dependencies-successful',
      // Two at a time: on two cores, more parallel suites only thrash (measured: 2m09 vs 2m51).
      '--concurrency=2',
    ],
    { cwd: root, env: pnpmEnv({ TMPDIR: temp.path }) },
  );
  // The repository scripts' own rules (the release rehearsal's), with Node's test runner.
  step('scripts (node --test scripts/)');
  const scripts =
    spawnSync(process.execPath, ['--test', 'scripts/'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, TMPDIR: temp.path },
    }).status ?? 1;
  const leftBehind = temp.left();
  let pack = { ok: false, skipped: true, lines: [] };
  if (turbo === 0) {
    step('pack check (pnpm pack, publint --strict, attw, consumer install and type-check)');
    pack = await packCheck({ root });
  }
  const rows = testSummaries();
  step(`summary (${seconds()})`);
  for (const row of rows) {
    const note = row.unreadable ? ' (result file unreadable)' : '';
    console.log(
      `  ${row.name.padEnd(26)} ${row.passed} passed, ${row.failed} failed${row.skipped ? `, ${row.skipped} skipped` : ''}${note}`,
    );
    for (const line of row.failures ?? []) console.log(`    ✗ ${line}`);
  }
  console.log(
    `  turbo (build, typecheck, lint, test): ${turbo === 0 ? 'ok' : `failed (exit ${turbo})`}`,
  );
  console.log(`  scripts (node --test scripts/): ${scripts === 0 ? 'ok' : 'failed'}`);
  console.log(
    `  pack check: ${pack.skipped ? 'not run (an earlier step failed)' : pack.ok ? 'ok' : 'failed'}`,
  );
  for (const line of pack.lines) console.log(`    ${line}`);
  console.log(
    `  temporary folders: ${leftBehind.length === 0 ? 'none left behind' : `${leftBehind.length} left behind by the tests: ${leftBehind.join(', ')}`}`,
  );
  const passed = rows.reduce((sum, row) => sum + row.passed, 0);
  const failed = rows.reduce((sum, row) => sum + row.failed, 0);
  const skipped = rows.reduce((sum, row) => sum + row.skipped, 0);
  console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(
    turbo === 0 &&
      scripts === 0 &&
      pack.ok &&
      failed === 0 &&
      rows.length > 0 &&
      leftBehind.length === 0
      ? 0
      : 1,
  );
} else if (mode === 'demo') {
  install();
  step('build the mecha command');
  const built = runPnpm(
    ['turbo', 'run', 'build', '--filter=@mecha/cli...', '--output-logs=errors-only'],
    { cwd: root },
  );
  if (built !== 0) process.exit(built);
  step('mecha demo');
  const demo = spawnSync(
    process.execPath,
    [join(root, 'apps/cli/dist/bin.js'), 'demo', ...process.argv.slice(3)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(demo.status ?? 1);
} else if (mode === 'changed') {
  // The packages whose files differ from the base (committed or not), without their dependents:
  // what they depend on is built first from turbo's cache. CI's full run is still npm test.
  const base = process.argv[3] ?? 'main';
  step(`typecheck and test the packages changed since ${base} (turbo --filter=[${base}])`);
  process.exit(
    runPnpm(['turbo', 'run', 'typecheck', 'test', `--filter=[${base}]`, '--concurrency=2'], {
      cwd: root,
    }),
  );
} else if (mode === 'build') {
  install();
  process.exit(runPnpm(['turbo', 'run', 'build'], { cwd: root }));
} else if (mode === 'bench') {
  ensurePostgres();
  install();
  process.exit(runPnpm(['turbo', 'run', 'bench', '--filter=@mecha/bench'], { cwd: root }));
} else {
  console.error('usage: node scripts/run.mjs test|changed [BASE]|demo|build|bench');
  process.exit(2);
}
