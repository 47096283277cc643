// The release rehearsal: publish every public package to a real, local, throwaway registry and
// use it from there the way a new user and a library consumer would.
//
//   npm run release:rehearse [-- --json] [-- --keep] [-- --in-place] [-- --out DIR]
//
// 1. Tarballs. By default a scratch copy of the working tree (tracked and untracked files, never
//    ignored ones) gets `changeset version`, an install and a build, and every public package is
//    `pnpm pack`ed there: the working tree's versions and changelogs are never touched. With
//    --in-place the working tree is packed as it is (the release workflow does this after the
//    "Version Packages" pull request has merged and the tree is built); --out DIR keeps the
//    tarballs and a tarballs.json listing them, which scripts/release-rehearsal-publish.mjs
//    publishes unchanged.
// 2. Each tarball is checked: versions as `changeset version` left them, a CHANGELOG.md entry for
//    each bumped version, the dependency ranges between the packages (each satisfied by the
//    version published beside it, no workspace:/catalog: left), a LICENSE and README, every
//    `exports`/`bin` target present, nothing that is not meant to ship (tests, fixtures, source
//    outside what `files` names, source maps that need files not in the tarball), and
//    publint --strict and attw --profile esm-only.
// 3. verdaccio 6.8.0 (the last release for Node 20) starts on a free loopback port with a fresh
//    storage and config and no uplink; every tarball is `npm publish`ed to it, and what it serves
//    is checked to be byte for byte the tarball that was checked (its sha512 integrity).
// 4. In a fresh prefix and npm cache: `npm install -g @mecha/cli`, then `mecha --version`,
//    `mecha init`, `mecha doctor`, `mecha demo` (its scripted distillation leaves candidate
//    facts that `mecha graph review` lists), `mecha web` (GET / and /review answer 200, then it
//    is stopped), and the graph server installed with it answers an MCP `tools/list` through the
//    SDK's stdio client.
// 5. A consumer project installs @mecha/appraisal-core and @mecha/stores from the registry,
//    type-checks the example of docs/integrating.md under --strict (nodenext, skipLibCheck off)
//    and runs it twice against one home.
// Everything runs in one temporary folder that is removed at the end (--keep keeps it), and
// verdaccio and every server started are stopped, on failure and on Ctrl-C too.
//
// @mecha/* packages come only from the local registry (a scoped registry, and verdaccio has no
// uplink, so a package that was not published cannot be fetched from anywhere else). Third-party
// dependencies (better-sqlite3, node-llama-cpp, the MCP SDK, @types/node …) come from the npm
// registry the machine is configured with, into the fresh cache: the rehearsal needs that
// registry, so it is a command of its own (and a CI job), not part of `npm test`.
//
// Exit codes: 0 every check passed; 1 a check failed (the summary says which); 2 usage;
// 3 the rehearsal could not run here (verdaccio could not be installed or started, the
// registry could not be reached for a third-party dependency before anything was checked).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { integratingExample, publishablePackages } from './pack-check.mjs';
import { pnpmBin, pnpmEnv } from './pnpm.mjs';
import { publishTarballs } from './release-rehearsal-publish.mjs';

export const verdaccioVersion = '6.8.0';

const usage = `usage: node scripts/release-rehearsal.mjs [--json] [--keep] [--in-place] [--out DIR]

  --in-place  pack the working tree as it is (already versioned and built) instead of a
              versioned scratch copy
  --out DIR   keep the checked tarballs and their list (tarballs.json) in DIR
  --keep      keep the temporary folder (registry storage, prefix, consumer) for a look
  --json      print the result as one JSON object instead of the summary`;

/** Parses the command line; returns the options or a usage message. */
export function parseArguments(argv) {
  const options = { json: false, keep: false, inPlace: false, out: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i];
    if (token === '--json') options.json = true;
    else if (token === '--keep') options.keep = true;
    else if (token === '--in-place') options.inPlace = true;
    else if (token === '--out') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) return { error: '--out needs a folder' };
      options.out = value;
      i += 1;
    } else if (token === '--help' || token === '-h') return { help: true };
    else return { error: `unknown argument '${token}'` };
  }
  return { options };
}

/** The `sha512-…` integrity npm computes for a file's bytes. */
export function integrityOf(path) {
  return `sha512-${createHash('sha512').update(readFileSync(path)).digest('base64')}`;
}

/** Whether `version` satisfies a plain range of the forms pnpm writes: x.y.z, ^x.y.z, ~x.y.z. */
export function satisfiesSimpleRange(version, range) {
  const parse = (text) => {
    const found = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/.exec(text);
    return found ? { major: +found[1], minor: +found[2], patch: +found[3], pre: found[4] } : null;
  };
  const v = parse(version);
  const operator = /^[\^~]/.exec(range)?.[0] ?? '';
  const base = parse(range.slice(operator.length));
  if (v === null || base === null) return false;
  if (operator === '') return version === range.slice(operator.length);
  const compare = (a, b) => a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (compare(v, base) < 0) return false;
  if (v.pre !== undefined && (v.pre !== base.pre || compare(v, base) !== 0)) return false;
  if (operator === '~') return v.major === base.major && v.minor === base.minor;
  if (base.major > 0) return v.major === base.major;
  if (base.minor > 0) return v.major === 0 && v.minor === base.minor;
  return v.major === 0 && v.minor === 0 && v.patch === base.patch;
}

/** Every file path a manifest's `exports` (conditions and subpaths) and `bin` point at. */
export function manifestTargets(manifest) {
  const targets = new Set();
  const walk = (value) => {
    if (typeof value === 'string') {
      if (!value.includes('*')) targets.add(value.replace(/^\.\//, ''));
    } else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(manifest.exports ?? {});
  walk(typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {}));
  if (manifest.main) walk(manifest.main);
  if (manifest.types) walk(manifest.types);
  return [...targets].sort();
}

/**
 * The findings on one tarball's contents, given its file list (paths under `package/`, without
 * that prefix), its manifest, and a reader for a file's text. Pure: the rules are tested on
 * their own (scripts/release-rehearsal.test.mjs).
 */
export function tarballFindings({ files, manifest, read, expectedVersion, published }) {
  const findings = [];
  const has = new Set(files);
  const allowsSource = (manifest.files ?? []).some((entry) => /^(\.\/)?src(\/|$)/.test(entry));
  if (manifest.version !== expectedVersion)
    findings.push(`version ${manifest.version}, expected ${expectedVersion}`);
  if (!files.some((file) => /^licen[cs]e(\.md|\.txt)?$/i.test(file)))
    findings.push('no LICENSE file');
  if (typeof manifest.license !== 'string' || manifest.license === '')
    findings.push('no license field');
  if (!has.has('README.md')) findings.push('no README.md');
  // npm publish --provenance refuses a package whose repository.url is missing (or names another
  // repository than the one building it: scripts/release-rehearsal-publish.mjs checks that).
  const repositoryUrl =
    typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (typeof repositoryUrl !== 'string' || repositoryUrl === '')
    findings.push('no repository.url (npm publish --provenance refuses it)');
  else if (typeof manifest.repository?.directory !== 'string')
    findings.push('repository has no directory (the package folder in the monorepo)');
  if (typeof manifest.homepage !== 'string') findings.push('no homepage');
  if (typeof (manifest.bugs?.url ?? manifest.bugs) !== 'string') findings.push('no bugs url');
  for (const target of manifestTargets(manifest))
    if (!has.has(target))
      findings.push(`${target} is named in package.json but not in the tarball`);
  // Folders `files` names besides dist and src are data the package ships on purpose (the
  // grader's bank of cases holds test files as cases): the test rules do not apply inside them.
  const dataFolders = (manifest.files ?? [])
    .map((entry) => entry.replace(/^\.\//, '').replace(/\/$/, ''))
    .filter((entry) => /^[\w.-]+$/.test(entry) && !['dist', 'src'].includes(entry));
  for (const file of files) {
    if (dataFolders.some((folder) => file.startsWith(`${folder}/`))) continue;
    if (/(^|\/)(node_modules|\.turbo|\.vitest|coverage|__fixtures__|test)\//.test(file))
      findings.push(`${file} should not ship`);
    else if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(file) || /\.tsbuildinfo$/.test(file))
      findings.push(`${file} should not ship`);
    else if (/^src\//.test(file) && !allowsSource)
      findings.push(`${file} ships though files does not name src`);
  }
  for (const file of files.filter((name) => name.endsWith('.map'))) {
    let map;
    try {
      map = JSON.parse(read(file));
    } catch {
      findings.push(`${file} is not a source map`);
      continue;
    }
    const sources = map.sources ?? [];
    const contents = map.sourcesContent ?? [];
    sources.forEach((source, index) => {
      if (/\.(test|spec)\.|__fixtures__/.test(source))
        findings.push(`${file} carries a test source (${source})`);
      if (typeof contents[index] !== 'string') {
        const resolved = join(dirname(file), source);
        if (!has.has(resolved)) findings.push(`${file} needs ${source}, which is not shipped`);
      }
    });
  }
  for (const group of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[group] ?? {})) {
      if (/^(workspace|catalog|link|file):/.test(range))
        findings.push(`${group}.${name} is '${range}'`);
      else if (published.has(name) && !satisfiesSimpleRange(published.get(name), range))
        findings.push(
          `${group}.${name} is '${range}', which the published ${published.get(name)} does not satisfy`,
        );
    }
  }
  if (has.has('CHANGELOG.md')) {
    const text = read('CHANGELOG.md');
    const first = /^## (\S+)/m.exec(text)?.[1];
    if (first !== expectedVersion)
      findings.push(`CHANGELOG.md's newest entry is ${first ?? 'missing'}, not ${expectedVersion}`);
  } else if (expectedVersion !== '0.0.0') findings.push('no CHANGELOG.md for a released version');
  return findings;
}

/** A free TCP port on the loopback interface. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a URL until it answers (any status) or the bound passes; returns the status or null. */
async function waitForHttp(url, boundMs) {
  const until = Date.now() + boundMs;
  while (Date.now() < until) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      return response.status;
    } catch {
      await sleep(250);
    }
  }
  return null;
}

class RehearsalError extends Error {
  constructor(message, { output = '', exitCode = 1 } = {}) {
    super(message);
    this.output = output;
    this.exitCode = exitCode;
  }
}

export async function rehearse({ root, inPlace = false, out, keep = false, log = () => {} }) {
  const work = mkdtempSync(join(tmpdir(), 'mecha-release-'));
  const steps = [];
  const children = new Set();
  const result = { ok: false, exitCode: 1, work: keep ? work : undefined, steps, packages: [] };
  const cleanEnv = () =>
    Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'INIT_CWD'),
    );
  const nodedir =
    process.env.npm_config_nodedir ?? (existsSync('/usr/include/node/node.h') ? '/usr' : '');

  const run = (command, args, options = {}) => {
    const done = spawnSync(command, args, {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      ...options,
    });
    return {
      status: done.status ?? 1,
      stdout: done.stdout ?? '',
      output: `${done.stdout ?? ''}${done.stderr ?? ''}${done.error ? String(done.error) : ''}`,
    };
  };
  const must = (what, done, exitCode = 1) => {
    if (done.status !== 0) throw new RehearsalError(what, { output: done.output, exitCode });
    return done;
  };
  const step = async (name, act) => {
    const started = Date.now();
    log(`▶ ${name}`);
    try {
      const detail = await act();
      steps.push({ name, ok: true, seconds: (Date.now() - started) / 1000, detail });
      log(`  ✓ ${detail ?? 'ok'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      const failure = {
        name,
        ok: false,
        seconds: (Date.now() - started) / 1000,
        detail: error.message,
        output: (error.output ?? error.stack ?? '').slice(-4000),
      };
      steps.push(failure);
      log(`  ✗ ${error.message}`);
      if (failure.output) log(failure.output.replace(/^/gm, '    '));
      throw Object.assign(error, { reported: true });
    }
  };

  const stopAll = () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
    }
  };
  const onSignal = (signal) => {
    stopAll();
    if (!keep) rmSync(work, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const stopChild = async (child) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    await exited;
    children.delete(child);
  };
  const startChild = (command, args, options) => {
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...options,
    });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    return { child, output: () => output };
  };

  try {
    if (!existsSync(join(root, 'node_modules', '.bin', 'publint')))
      throw new RehearsalError(
        "the workspace is not installed (no node_modules/.bin/publint): run 'npm run build' first",
        { exitCode: 3 },
      );
    // 1. The tarballs.
    const tarballs = join(work, 'tarballs');
    mkdirSync(tarballs);
    let source = root;
    let bumped = [];
    if (!inPlace) {
      source = join(work, 'repo');
      await step('scratch copy: changeset version, install, build', () => {
        const listed = must(
          'git ls-files failed',
          run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
            cwd: root,
          }),
        );
        for (const file of listed.stdout.split('\0').filter(Boolean)) {
          const from = join(root, file);
          if (!existsSync(from) || !statSync(from).isFile()) continue;
          mkdirSync(dirname(join(source, file)), { recursive: true });
          copyFileSync(from, join(source, file));
        }
        const before = new Map(
          publishablePackages(source).map(({ manifest }) => [manifest.name, manifest.version]),
        );
        const env = pnpmEnv({ npm_config_nodedir: nodedir || undefined });
        must(
          'pnpm install in the scratch copy failed',
          run(pnpmBin(), ['install', '--frozen-lockfile', '--prefer-offline'], {
            cwd: source,
            env,
          }),
        );
        must(
          'changeset version failed',
          run(process.execPath, [join(source, 'node_modules/@changesets/cli/bin.js'), 'version'], {
            cwd: source,
            env,
          }),
        );
        bumped = publishablePackages(source)
          .filter(({ manifest }) => before.get(manifest.name) !== manifest.version)
          .map(({ manifest }) => `${manifest.name}@${manifest.version}`);
        must(
          'the build of the versioned copy failed',
          run(
            pnpmBin(),
            ['turbo', 'run', 'build', '--output-logs=errors-only', '--concurrency=2'],
            { cwd: source, env },
          ),
        );
        return bumped.length === 0
          ? 'no pending changesets: versions as they are'
          : `${bumped.length} packages versioned (${bumped.slice(0, 3).join(', ')}${bumped.length > 3 ? ', …' : ''})`;
      });
    }
    const packages = publishablePackages(source);
    const published = new Map(packages.map(({ manifest }) => [manifest.name, manifest.version]));
    await step(`pack ${packages.length} public packages`, () => {
      const env = pnpmEnv();
      for (const { dir, manifest } of packages) {
        const packed = must(
          `pnpm pack of ${manifest.name} failed`,
          run(pnpmBin(), ['pack', '--pack-destination', tarballs, '--json'], { cwd: dir, env }),
        );
        const file = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('{'))).filename;
        result.packages.push({
          name: manifest.name,
          version: manifest.version,
          file: relative(tarballs, file),
          integrity: integrityOf(file),
        });
      }
      return `${result.packages.length} tarballs`;
    });

    // 2. What is in them.
    await step('tarball contents, versions, changelogs, ranges, publint, attw', () => {
      const problems = [];
      const unpacked = join(work, 'unpacked');
      const bin = (name) => join(root, 'node_modules', '.bin', name);
      for (const entry of result.packages) {
        const path = join(tarballs, entry.file);
        const into = join(unpacked, entry.file);
        mkdirSync(into, { recursive: true });
        must(`${entry.file} does not unpack`, run('tar', ['-xzf', path, '-C', into]));
        const base = join(into, 'package');
        const files = must('tar -t failed', run('tar', ['-tzf', path]))
          .stdout.split('\n')
          .filter((line) => line.startsWith('package/') && !line.endsWith('/'))
          .map((line) => line.slice('package/'.length));
        const manifest = JSON.parse(readFileSync(join(base, 'package.json'), 'utf8'));
        for (const finding of tarballFindings({
          files,
          manifest,
          read: (file) => readFileSync(join(base, file), 'utf8'),
          expectedVersion: entry.version,
          published,
        }))
          problems.push(`${entry.name}: ${finding}`);
        const publint = run(bin('publint'), ['run', path, '--strict']);
        if (publint.status !== 0)
          problems.push(`${entry.name}: publint --strict\n${publint.output}`);
        const attw = run(bin('attw'), [path, '--profile', 'esm-only', '--format', 'table-flipped']);
        if (attw.status !== 0) problems.push(`${entry.name}: attw\n${attw.output}`);
      }
      if (problems.length > 0)
        throw new RehearsalError(`${problems.length} finding(s) in the tarballs`, {
          output: problems.join('\n'),
        });
      return `${result.packages.length} tarballs clean${bumped.length ? `; ${bumped.length} changelog entries match` : ''}`;
    });
    writeFileSync(
      join(tarballs, 'tarballs.json'),
      `${JSON.stringify({ packages: result.packages }, null, 2)}\n`,
    );
    if (out !== undefined) {
      mkdirSync(out, { recursive: true });
      for (const entry of result.packages)
        copyFileSync(join(tarballs, entry.file), join(out, entry.file));
      writeFileSync(
        join(out, 'tarballs.json'),
        `${JSON.stringify({ packages: result.packages }, null, 2)}\n`,
      );
    }

    // 3. The registry.
    const port = await freePort();
    const registry = `http://127.0.0.1:${port}/`;
    const npmrc = join(work, 'npmrc');
    writeFileSync(
      npmrc,
      [
        `@mecha:registry=${registry}`,
        `//127.0.0.1:${port}/:_authToken=rehearsal`,
        'fund=false',
        'audit=false',
        'update-notifier=false',
        '',
      ].join('\n'),
    );
    const prefix = join(work, 'prefix');
    const npmEnv = {
      ...cleanEnv(),
      npm_config_userconfig: npmrc,
      npm_config_globalconfig: join(work, 'no-global-npmrc'),
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_prefix: prefix,
      ...(nodedir ? { npm_config_nodedir: nodedir } : {}),
    };
    await step(
      `verdaccio ${verdaccioVersion} on ${registry} (no uplink, fresh storage)`,
      async () => {
        // Installed once per machine beside the workspace's own packages (node_modules is ignored),
        // pinned: 6.10 and later want Node 22.
        const home = join(root, 'node_modules', '.cache', `verdaccio-${verdaccioVersion}`);
        const entry = join(home, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
        if (!existsSync(entry)) {
          mkdirSync(home, { recursive: true });
          must(
            `npm install verdaccio@${verdaccioVersion} failed`,
            run(
              'npm',
              [
                'install',
                '--prefix',
                home,
                '--no-save',
                '--no-audit',
                '--no-fund',
                `verdaccio@${verdaccioVersion}`,
              ],
              { env: { ...cleanEnv() } },
            ),
            3,
          );
        }
        const config = join(work, 'verdaccio.yaml');
        writeFileSync(
          config,
          [
            `storage: ${join(work, 'storage')}`,
            'auth:',
            '  htpasswd:',
            `    file: ${join(work, 'htpasswd')}`,
            '    max_users: -1',
            'uplinks: {}',
            'packages:',
            "  '@mecha/*':",
            '    access: $all',
            '    publish: $anonymous',
            "  '**':",
            '    access: $all',
            'log: { type: stdout, format: pretty, level: warn }',
            '',
          ].join('\n'),
        );
        const verdaccio = startChild(
          process.execPath,
          [entry, '--config', config, '--listen', `127.0.0.1:${port}`],
          { cwd: work, env: { ...cleanEnv() } },
        );
        // A bound on a failure to start, not a timing: verdaccio answers in ~5 s here.
        const status = await waitForHttp(`${registry}-/ping`, 60_000);
        if (status !== 200)
          throw new RehearsalError(`verdaccio did not answer on ${registry}`, {
            output: verdaccio.output(),
            exitCode: 3,
          });
        return 'answering';
      },
    );

    await step(
      'npm publish every tarball to it (scripts/release-rehearsal-publish.mjs)',
      async () => {
        const publishing = publishTarballs({
          dir: tarballs,
          registry,
          provenance: false,
          env: npmEnv,
          cwd: work,
        });
        if (!publishing.ok || publishing.published.length !== result.packages.length)
          throw new RehearsalError('publishing to the local registry failed', {
            output: publishing.failures.join('\n'),
          });
        const differing = [];
        for (const entry of result.packages) {
          // The packument, as npm reads it: what the registry serves for this version.
          const response = await fetch(`${registry}${entry.name.replace('/', '%2f')}`);
          const packument = response.ok ? await response.json() : {};
          if (packument.versions?.[entry.version]?.dist?.integrity !== entry.integrity)
            differing.push(entry);
        }
        if (differing.length > 0)
          throw new RehearsalError(
            `the registry serves other bytes than were checked for ${differing.map((entry) => entry.name).join(', ')}`,
          );
        return `${result.packages.length} published; the registry serves the checked bytes (sha512)`;
      },
    );

    // 4. The command, installed as a user installs it.
    const cli = result.packages.find((entry) => entry.name === '@mecha/cli');
    const mecha = join(prefix, 'bin', 'mecha');
    await step(`npm install -g @mecha/cli@${cli.version} (fresh prefix and cache)`, () => {
      must(
        'npm install -g @mecha/cli failed',
        run('npm', ['install', '-g', `@mecha/cli@${cli.version}`, '--loglevel=error'], {
          env: npmEnv,
          cwd: work,
        }),
      );
      const installed = join(prefix, 'lib', 'node_modules', '@mecha', 'cli');
      const wrong = [];
      const check = (dir) => {
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        if (published.has(manifest.name) && published.get(manifest.name) !== manifest.version)
          wrong.push(`${manifest.name}@${manifest.version}`);
        const nested = join(dir, 'node_modules', '@mecha');
        if (existsSync(nested)) for (const name of readdirSync(nested)) check(join(nested, name));
      };
      check(installed);
      if (wrong.length > 0)
        throw new RehearsalError(
          `installed versions differ from the published: ${wrong.join(', ')}`,
        );
      return existsSync(mecha) ? `mecha at ${relative(work, mecha)}` : 'installed';
    });
    const userEnv = {
      ...cleanEnv(),
      PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      NO_COLOR: '1',
    };
    delete userEnv.MECHA_HOME;
    const home = join(work, 'user-home');
    await step('mecha --version, init, doctor, demo, graph review', () => {
      const version = must(
        'mecha --version failed',
        run(mecha, ['--version'], { env: userEnv }),
      ).stdout.trim();
      if (version !== cli.version)
        throw new RehearsalError(`mecha --version says ${version}, not ${cli.version}`);
      must('mecha init failed', run(mecha, ['init', '--home', home], { env: userEnv }));
      must(
        'mecha doctor on the new home failed',
        run(mecha, ['--home', home, 'doctor'], { env: userEnv }),
      );
      const demoHome = join(work, 'demo-home');
      const demo = must(
        'mecha demo failed',
        run(mecha, ['demo', '--home', demoHome, '--sessions', '60'], { env: userEnv }),
      );
      // The demo's scripted distillation goes through the graph server installed beside the
      // command, and leaves candidate facts in the review queue the demo tells the user to open.
      const review = must(
        'mecha graph review on the demo home failed',
        run(mecha, ['--home', demoHome, 'graph', 'review', '--json'], { env: userEnv }),
      );
      const waiting = JSON.parse(review.stdout).facts?.items?.length ?? 0;
      if (waiting === 0)
        throw new RehearsalError('the demo left nothing in the review queue', {
          output: `${demo.output}\n${review.output}`,
        });
      return `mecha ${version}; init, doctor and demo exit 0 (${demo.stdout.split('\n').length} lines of demo); graph review lists ${waiting} candidate facts`;
    });
    await step('mecha web answers GET / and /review with 200', async () => {
      const web = startChild(mecha, ['--home', join(work, 'demo-home'), 'web', '--port', '0'], {
        env: userEnv,
      });
      try {
        let url = null;
        const until = Date.now() + 60_000;
        while (url === null && Date.now() < until && web.child.exitCode === null) {
          url = /(http:\/\/127\.0\.0\.1:\d+)\S*/.exec(web.output())?.[0] ?? null;
          if (url === null) await sleep(200);
        }
        if (url === null)
          throw new RehearsalError('mecha web printed no address', { output: web.output() });
        const response = await fetch(url);
        const body = await response.text();
        if (response.status !== 200)
          throw new RehearsalError(`GET ${url} answered ${response.status}`, {
            output: body.slice(0, 2000),
          });
        const reviewPage = await fetch(new URL('/review', url));
        const reviewBody = await reviewPage.text();
        if (reviewPage.status !== 200 || !reviewBody.includes('id="facts"'))
          throw new RehearsalError(
            `GET /review answered ${reviewPage.status} without the demo's candidate facts`,
            { output: reviewBody.slice(0, 2000) },
          );
        return `GET / 200 (${body.length} bytes), GET /review lists the candidate facts, stopped`;
      } finally {
        await stopChild(web.child);
      }
    });
    await step('mecha-graph-mcp answers tools/list through the MCP SDK client', async () => {
      const installed = join(prefix, 'lib', 'node_modules', '@mecha', 'cli');
      const fromCli = createRequire(join(installed, 'package.json'));
      const graphBin = join(
        dirname(fromCli.resolve('@mecha/graph/package.json')),
        'dist',
        'bin.js',
      );
      const sdk = (path) =>
        pathToFileURL(fromCli.resolve(`@modelcontextprotocol/sdk/${path}`)).href;
      const { Client } = await import(sdk('client/index.js'));
      const { StdioClientTransport } = await import(sdk('client/stdio.js'));
      const client = new Client({ name: 'mecha-release-rehearsal', version: cli.version });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [graphBin, '--db', join(work, 'graph.db')],
        env: { PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        if (!Array.isArray(tools) || tools.length === 0)
          throw new RehearsalError('tools/list answered no tools');
        return `${tools.length} tools (${tools
          .slice(0, 3)
          .map((tool) => tool.name)
          .join(', ')}, …)`;
      } finally {
        await client.close();
      }
    });

    // 5. A library consumer.
    await step(
      'a consumer installs appraisal-core + stores, type-checks and runs the guide',
      () => {
        const consumer = join(work, 'consumer');
        mkdirSync(consumer);
        const catalog = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
        const typesNode = /"@types\/node":\s*([^\s]+)/.exec(catalog)?.[1] ?? '20';
        writeFileSync(
          join(consumer, 'package.json'),
          JSON.stringify({
            name: 'mecha-rehearsal-consumer',
            private: true,
            type: 'module',
            dependencies: {
              '@mecha/appraisal-core': published.get('@mecha/appraisal-core'),
              '@mecha/stores': published.get('@mecha/stores'),
            },
            devDependencies: { '@types/node': typesNode },
          }),
        );
        must(
          'npm install in the consumer failed',
          run('npm', ['install', '--loglevel=error'], { cwd: consumer, env: npmEnv }),
        );
        const example = integratingExample(root);
        if (example === null)
          throw new RehearsalError('docs/integrating.md has no ```ts example block');
        writeFileSync(join(consumer, 'example.ts'), example);
        writeFileSync(
          join(consumer, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              target: 'ES2022',
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              strict: true,
              skipLibCheck: false,
              types: ['node'],
              outDir: 'out',
            },
            files: ['example.ts'],
          }),
        );
        const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
        must(
          'the integrating example does not type-check (strict)',
          run(process.execPath, [tsc, '-p', consumer]),
        );
        const exampleHome = join(work, 'example-home');
        must(
          'mecha init for the example failed',
          run(mecha, ['init', '--home', exampleHome], { env: userEnv }),
        );
        for (const attempt of [1, 2]) {
          must(
            `the integrating example failed on run ${attempt} against one home`,
            run(process.execPath, [join(consumer, 'out', 'example.js')], {
              cwd: consumer,
              env: { PATH: process.env.PATH ?? '', MECHA_HOME: exampleHome },
            }),
          );
        }
        return 'installed from the registry; strict type-check; ran twice against one home';
      },
    );
    result.ok = true;
    result.exitCode = 0;
  } catch (error) {
    if (!error.reported) {
      steps.push({
        name: 'rehearsal',
        ok: false,
        detail: error.message,
        output: String(error.stack ?? ''),
      });
      log(`✗ ${error.message}`);
    }
    result.exitCode = error.exitCode ?? 1;
  } finally {
    stopAll();
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((resolve) => child.once('exit', resolve));
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const parsed = parseArguments(process.argv.slice(2));
  if (parsed.help) {
    console.log(usage);
    process.exit(0);
  }
  if (parsed.error) {
    console.error(`release-rehearsal: ${parsed.error}\n${usage}`);
    process.exit(2);
  }
  const { options } = parsed;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const started = Date.now();
  const result = await rehearse({
    root,
    inPlace: options.inPlace,
    out: options.out,
    keep: options.keep,
    log: options.json ? () => {} : (line) => console.log(line),
  });
  const seconds = (Date.now() - started) / 1000;
  if (options.json) console.log(JSON.stringify({ ...result, seconds }, null, 2));
  else {
    console.log(`\nrelease rehearsal: ${result.ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(0)} s`);
    for (const entry of result.steps)
      console.log(
        `  ${entry.ok ? '✓' : '✗'} ${entry.name}: ${entry.detail ?? ''} (${entry.seconds?.toFixed(1) ?? '?'} s)`,
      );
    if (result.work) console.log(`  kept: ${result.work}`);
  }
  process.exit(result.exitCode);
}
