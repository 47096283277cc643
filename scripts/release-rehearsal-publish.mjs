// Publishes the tarballs a release rehearsal checked, byte for byte, and nothing else.
//
//   node scripts/release-rehearsal-publish.mjs DIR [--registry URL] [--no-provenance]
//
// DIR is what `node scripts/release-rehearsal.mjs --out DIR` wrote: the tarballs and
// tarballs.json (name, version, file and sha512 integrity of each). Each tarball's bytes are
// checked against that list first; a version the registry already has is skipped (a push with no
// new changeset after a release), so the command is safe to run again. For each one published it
// prints "New tag: NAME@VERSION", the line changesets/action reads (as it reads `changeset
// publish`'s) to create the tag NAME@VERSION and the GitHub release. The rehearsal publishes to
// its local registry through the same function, without provenance.
//
// Exit codes: 0 published (or nothing to publish); 1 a publish failed or a tarball differs
// from the one checked; 2 usage.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { integrityOf } from './release-rehearsal.mjs';

/**
 * Publishes every tarball listed in DIR/tarballs.json. Returns { ok, published, skipped,
 * failures }; `log` gets one line per package.
 */
export function publishTarballs({
  dir,
  registry,
  provenance = true,
  env = process.env,
  cwd = process.cwd(),
  log = () => {},
}) {
  const listFile = join(dir, 'tarballs.json');
  if (!existsSync(listFile))
    return { ok: false, published: [], skipped: [], failures: [`${listFile} does not exist`] };
  const { packages } = JSON.parse(readFileSync(listFile, 'utf8'));
  const failures = [];
  for (const entry of packages) {
    const path = join(dir, entry.file);
    if (!existsSync(path)) failures.push(`${entry.file} is missing`);
    else if (integrityOf(path) !== entry.integrity)
      failures.push(`${entry.file} is not the tarball the rehearsal checked`);
  }
  // npm refuses a provenance statement for a package whose repository.url is not the repository
  // that built it: say so for every package before anything is published.
  const repository = env.GITHUB_REPOSITORY;
  if (provenance && repository && failures.length === 0) {
    for (const entry of packages) {
      const manifest = JSON.parse(
        spawnSync('tar', ['-xzOf', join(dir, entry.file), 'package/package.json'], {
          encoding: 'utf8',
        }).stdout || '{}',
      );
      const url =
        typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
      if (typeof url !== 'string' || !url.includes(`github.com/${repository}`))
        failures.push(
          `${entry.name}: package.json's repository.url (${url ?? 'missing'}) must name https://github.com/${repository} for npm provenance`,
        );
    }
  }
  if (failures.length > 0) return { ok: false, published: [], skipped: [], failures };
  const npm = (args) =>
    spawnSync('npm', [...args, ...(registry ? ['--registry', registry] : [])], {
      encoding: 'utf8',
      env,
      cwd,
    });
  const published = [];
  const skipped = [];
  for (const entry of packages) {
    const spec = `${entry.name}@${entry.version}`;
    const seen = npm(['view', spec, 'dist.integrity']);
    const served = seen.status === 0 ? seen.stdout.trim() : '';
    if (served !== '') {
      if (served === entry.integrity) {
        skipped.push(spec);
        log(`  ${spec} is already published (the same bytes): skipped`);
      } else failures.push(`${spec} is already published with other bytes`);
      continue;
    }
    const done = npm([
      'publish',
      resolve(dir, entry.file),
      '--access',
      'public',
      '--tag',
      'latest',
      ...(provenance ? ['--provenance'] : []),
    ]);
    if (done.status !== 0) {
      failures.push(`npm publish ${spec} failed:\n${done.stdout}${done.stderr}`);
      continue;
    }
    published.push(spec);
    // changesets/action reads this line: it creates the tag and writes the GitHub release.
    log(`New tag: ${spec}`);
  }
  return { ok: failures.length === 0, published, skipped, failures };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  let dir;
  let registry;
  let provenance = true;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--registry') registry = args[++i];
    else if (args[i] === '--no-provenance') provenance = false;
    else if (!args[i].startsWith('--') && dir === undefined) dir = args[i];
    else {
      console.error(`release-rehearsal-publish: unknown argument '${args[i]}'`);
      process.exit(2);
    }
  }
  if (dir === undefined || (args.includes('--registry') && !registry)) {
    console.error(
      'usage: node scripts/release-rehearsal-publish.mjs DIR [--registry URL] [--no-provenance]',
    );
    process.exit(2);
  }
  const result = publishTarballs({ dir, registry, provenance, log: console.log });
  for (const failure of result.failures) console.error(`✗ ${failure}`);
  console.log(
    `${result.published.length} published, ${result.skipped.length} already there, ${result.failures.length} failed`,
  );
  process.exit(result.ok ? 0 : 1);
}
