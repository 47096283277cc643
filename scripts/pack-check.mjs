// The pack check: what users would install, checked as they would install it.
// 0. Every public package.json names the repository (with its directory), homepage and bugs
//    (scripts/package-metadata.mjs): npm publish --provenance refuses a package without them.
// 1. `pnpm pack` every publishable package (pnpm rewrites workspace: and catalog: specifiers).
// 2. publint --strict and attw --profile esm-only on each tarball.
// 3. A consumer project outside the repository `npm install`s the tarballs (no workspace
//    links), imports every entry (subpaths too) with plain Node and type-checks a consumer file
//    against the published .d.ts with skipLibCheck off, together with the example of
//    docs/integrating.md and the live-path harness (packages/stores/examples/live-harness.ts)
//    under --strict and module nodenext; then compiles both and runs them from the tarballs.
import { spawnSync } from 'node:child_process';
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
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { metadataFindings } from './package-metadata.mjs';
import { pnpmBin, pnpmEnv } from './pnpm.mjs';

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', env: pnpmEnv(), ...options });
  return {
    status: result.status ?? 1,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim(),
  };
}

/**
 * The workspace's package folders, from pnpm-workspace.yaml's `packages:` globs (`dir/*` or a
 * plain folder; `!`-negations drop matches), sorted.
 */
export function workspaceDirs(root) {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\n((?:[ \t]+-[^\n]*\n?)+)/m.exec(text)?.[1] ?? '';
  const globs = [...block.matchAll(/^[ \t]+-[ \t]*["']?([^"'\n#]+?)["']?[ \t]*(?:#.*)?$/gm)].map(
    (found) => found[1],
  );
  const expand = (glob) => {
    if (glob.endsWith('/*')) {
      const base = join(root, glob.slice(0, -2));
      if (!existsSync(base)) return [];
      return readdirSync(base, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(base, entry.name));
    }
    if (glob.includes('*')) throw new Error(`pnpm-workspace.yaml: glob '${glob}' is not read here`);
    return [join(root, glob)];
  };
  const excluded = new Set(
    globs.filter((glob) => glob.startsWith('!')).flatMap((glob) => expand(glob.slice(1))),
  );
  const dirs = globs
    .filter((glob) => !glob.startsWith('!'))
    .flatMap(expand)
    .filter((dir) => !excluded.has(dir) && existsSync(join(dir, 'package.json')));
  return [...new Set(dirs)].sort();
}

/**
 * The publishable packages, found rather than listed: every workspace package
 * (pnpm-workspace.yaml) not marked private, sorted by folder.
 */
export function publishablePackages(root) {
  return workspaceDirs(root)
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => !manifest.private);
}

/** Every import specifier a package publishes: its root and each subpath without a wildcard. */
export function publicEntries(manifest) {
  const subpaths = Object.keys(manifest.exports ?? { '.': null }).filter(
    (key) => key !== './package.json' && !key.includes('*'),
  );
  return subpaths.map((key) => (key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`));
}

/** The ```ts block between the example markers of docs/integrating.md, or null. */
export function integratingExample(root) {
  const text = readFileSync(join(root, 'docs', 'integrating.md'), 'utf8');
  const found =
    /<!-- example:harness:start -->\n```ts\n([\s\S]*?)```\n<!-- example:harness:end -->/.exec(text);
  return found ? found[1] : null;
}

/** Runs the whole check; returns { ok, lines } with one line per finding for the summary. */
export async function packCheck({ root, keep = false }) {
  const work = mkdtempSync(join(tmpdir(), 'mecha-pack-'));
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  const lines = [];
  let ok = true;
  const fail = (line, output) => {
    ok = false;
    lines.push(line);
    if (output) console.log(output);
  };
  const packages = publishablePackages(root);
  const bin = (name) => join(root, 'node_modules', '.bin', name);
  // repository (with directory), homepage and bugs: npm publish --provenance needs the first.
  const metadata = metadataFindings(root);
  for (const finding of metadata) fail(finding);
  if (metadata.length > 0) lines.push('fix: node scripts/package-metadata.mjs --write');

  for (const { dir, manifest } of packages) {
    const packed = run(pnpmBin(), ['pack', '--pack-destination', tarballs], { cwd: dir });
    if (packed.status !== 0) {
      fail(`${manifest.name}: pnpm pack failed`, packed.output);
      continue;
    }
    const tarball = readdirSync(tarballs).find((file) =>
      file.startsWith(`${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}`),
    );
    if (!tarball) {
      fail(`${manifest.name}: no tarball was written`);
      continue;
    }
    const path = join(tarballs, tarball);
    const publint = run(bin('publint'), ['run', path, '--strict']);
    if (publint.status !== 0) fail(`${manifest.name}: publint --strict failed`, publint.output);
    const attw = run(bin('attw'), [path, '--profile', 'esm-only', '--format', 'table-flipped']);
    if (attw.status !== 0) fail(`${manifest.name}: attw --profile esm-only failed`, attw.output);
    console.log(
      `  packed ${tarball}: publint ${publint.status === 0 ? 'ok' : 'FAILED'}, attw ${attw.status === 0 ? 'ok' : 'FAILED'}`,
    );
  }

  // The consumer: a plain npm project that knows nothing of the workspace.
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const catalog = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const typesNode = /"@types\/node":\s*([^\s]+)/.exec(catalog)?.[1] ?? '20';
  const dependencies = Object.fromEntries(
    readdirSync(tarballs).map((file) => {
      const { manifest } = packages.find(({ manifest }) =>
        file.startsWith(`${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}`),
      );
      return [manifest.name, `file:${join(tarballs, file)}`];
    }),
  );
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify(
      {
        name: 'mecha-consumer',
        private: true,
        type: 'module',
        dependencies,
        devDependencies: { '@types/node': typesNode },
      },
      null,
      2,
    ),
  );
  // Install scripts and optional dependencies are skipped: this checks packaging (exports,
  // declarations, dependency specifiers), not native builds — better-sqlite3 compiles and
  // node-llama-cpp's ~630 MB of GPU prebuilts are exercised by the workspace install itself.
  const installed = run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--omit=optional',
      '--loglevel=error',
    ],
    { cwd: consumer },
  );
  if (installed.status !== 0) {
    fail('consumer: npm install of the tarballs failed', installed.output);
  } else {
    const names = Object.keys(dependencies);
    const entries = packages
      .filter(({ manifest }) => names.includes(manifest.name))
      .flatMap(({ manifest }) => publicEntries(manifest));
    // (a) every public entry imports with plain Node.
    const importer = entries.map(
      (name) =>
        `import(${JSON.stringify(name)}).then((m) => console.log(${JSON.stringify(name)}, Object.keys(m).length + ' exports'))`,
    );
    writeFileSync(
      join(consumer, 'import-all.mjs'),
      `await Promise.all([\n${importer.join(',\n')}\n]);\n`,
    );
    const imported = run(process.execPath, ['import-all.mjs'], { cwd: consumer });
    if (imported.status !== 0)
      fail('consumer: importing a public entry with plain Node failed', imported.output);
    else
      lines.push(
        `consumer: ${entries.length} entries of ${names.length} packages import with plain Node`,
      );
    // (b) a consumer .ts file type-checks against the published declarations, and so does the
    // example of docs/integrating.md, as a new user would paste it (strict, module nodenext).
    const example = integratingExample(root);
    if (example === null) fail('consumer: docs/integrating.md has no ```ts example block');
    else writeFileSync(join(consumer, 'example.ts'), example);
    writeFileSync(
      join(consumer, 'live-harness.ts'),
      readFileSync(join(root, 'packages', 'stores', 'examples', 'live-harness.ts'), 'utf8'),
    );
    const source = entries.map(
      (name, index) =>
        `import * as package${index} from ${JSON.stringify(name)};\nexport const surface${index}: typeof package${index} = package${index};`,
    );
    writeFileSync(join(consumer, 'consumer.ts'), `${source.join('\n')}\n`);
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          types: ['node'],
        },
        files: ['consumer.ts', 'live-harness.ts', ...(example === null ? [] : ['example.ts'])],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const typed = run(process.execPath, [tsc, '-p', consumer]);
    if (typed.status !== 0)
      fail(
        'consumer: type-checking against the published .d.ts (or the integrating example) failed (strict, skipLibCheck: false)',
        typed.output,
      );
    else
      lines.push(
        `consumer: the published .d.ts of ${names.length} packages and the integrating example type-check (strict, nodenext, skipLibCheck: false)`,
      );
    // (c) the examples compile and run from the tarballs: the guide's full run, and a few runs
    // of the live-path harness into a fresh home.
    if (typed.status === 0 && example !== null) {
      writeFileSync(
        join(consumer, 'tsconfig.emit.json'),
        JSON.stringify({
          extends: './tsconfig.json',
          compilerOptions: { noEmit: false, outDir: 'out' },
          files: ['example.ts', 'live-harness.ts'],
        }),
      );
      const emitted = run(process.execPath, [tsc, '-p', join(consumer, 'tsconfig.emit.json')]);
      const home = join(consumer, 'live-home');
      mkdirSync(home);
      // Without MECHA_HOME the guide makes a temporary home under the system's temporary folder:
      // point that at the work folder, so the check leaves nothing behind in /tmp.
      const scratch = join(consumer, 'tmp');
      mkdirSync(scratch);
      const guide = run(process.execPath, [join(consumer, 'out', 'example.js')], {
        cwd: consumer,
        env: { PATH: process.env.PATH ?? '', TMPDIR: scratch },
      });
      const live = run(process.execPath, [join(consumer, 'out', 'live-harness.js')], {
        cwd: consumer,
        env: { PATH: process.env.PATH ?? '', MECHA_HOME: home, RUNS: '5' },
      });
      const json = guide.output.split('\n').findLast((line) => line.startsWith('{'));
      const printed = guide.status === 0 && json !== undefined ? JSON.parse(json) : {};
      if (emitted.status !== 0) fail('consumer: compiling the examples failed', emitted.output);
      else if (guide.status !== 0 || printed.taskStatus !== 'done' || printed.denied !== 1)
        fail('consumer: the integrating example did not run to its end', guide.output);
      else if (!String(printed.home).startsWith(scratch))
        fail(`consumer: the integrating example made its home outside ${scratch}`, guide.output);
      else if (live.status !== 0 || live.output.trim().split('\n').length !== 5)
        fail('consumer: the live-path harness did not record its 5 runs', live.output);
      else
        lines.push(
          `consumer: the integrating example and the live-path harness compile and run from the tarballs (badge ${JSON.stringify(printed.badge?.text ?? null)})`,
        );
    }
  }
  lines.unshift(
    `${packages.length} tarballs packed and linted (publint --strict, attw --profile esm-only)`,
  );
  if (!keep) rmSync(work, { recursive: true, force: true });
  else lines.push(`kept: ${work}`);
  return { ok, lines };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = await packCheck({ root, keep: process.argv.includes('--keep') });
  for (const line of result.lines) console.log(line);
  process.exit(result.ok ? 0 : 1);
}
