// The registry metadata of every public package: `repository` (with the package's `directory`),
// `homepage` and `bugs`, derived from the one address in the root package.json's
// `repository.url`. npm refuses `publish --provenance` for a package whose repository.url does
// not name the GitHub repository that built it, and the registry page links nowhere without them.
//
//   node scripts/package-metadata.mjs          check: exit 1 and one line per package that differs
//   node scripts/package-metadata.mjs --write  write the fields into each public package.json
//
// The public packages are found, not listed: every workspace package (pnpm-workspace.yaml's
// globs) that is not `private` (scripts/pack-check.mjs' publishablePackages). The pack check
// (npm test) and the release rehearsal's tarball check both fail on a finding.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { publishablePackages } from './pack-check.mjs';

/**
 * The repository's web address (https://github.com/OWNER/NAME) from the root package.json's
 * repository.url (`git+https://….git`, `https://…`, or `github:OWNER/NAME`), or null.
 */
export function repositoryWebUrl(url) {
  if (typeof url !== 'string') return null;
  const shorthand = /^github:([\w.-]+\/[\w.-]+)$/.exec(url);
  if (shorthand) return `https://github.com/${shorthand[1]}`;
  const found = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?\/?$/.exec(url);
  return found ? `https://github.com/${found[1]}` : null;
}

/** The fields a public package at `directory` (relative to the root, `/`-separated) must carry. */
export function expectedMetadata(rootRepository, directory) {
  const web = repositoryWebUrl(rootRepository?.url);
  if (web === null) return null;
  return {
    repository: { type: 'git', url: `git+${web}.git`, directory },
    homepage: `${web}/tree/main/${directory}#readme`,
    bugs: { url: `${web}/issues` },
  };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One line per public package whose metadata differs from what the root's repository implies
 * (or one line when the root names no usable repository). Empty when all is well.
 */
export function metadataFindings(root) {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (repositoryWebUrl(rootManifest.repository?.url) === null)
    return [
      `package.json (root): repository.url must be the GitHub repository (git+https://github.com/OWNER/NAME.git), not ${JSON.stringify(rootManifest.repository?.url ?? null)}`,
    ];
  const findings = [];
  for (const { dir, manifest } of publishablePackages(root)) {
    const directory = relative(root, dir).split(sep).join('/');
    const expected = expectedMetadata(rootManifest.repository, directory);
    for (const [field, value] of Object.entries(expected))
      if (!same(manifest[field], value))
        findings.push(
          `${manifest.name} (${directory}/package.json): ${field} is ${manifest[field] === undefined ? 'missing' : JSON.stringify(manifest[field])}, expected ${JSON.stringify(value)}`,
        );
  }
  return findings;
}

/**
 * Writes the expected fields into every public package.json that differs, after `license` (or at
 * the end), keeping the rest of the file's order. Returns the package names written.
 */
export function writeMetadata(root) {
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const written = [];
  for (const { dir, manifest } of publishablePackages(root)) {
    const directory = relative(root, dir).split(sep).join('/');
    const expected = expectedMetadata(rootManifest.repository, directory);
    if (expected === null) throw new Error('the root package.json names no GitHub repository.url');
    if (Object.entries(expected).every(([field, value]) => same(manifest[field], value))) continue;
    const next = {};
    for (const [key, value] of Object.entries(manifest)) {
      if (key in expected) continue;
      next[key] = value;
      if (key === 'license') Object.assign(next, expected);
    }
    if (!('repository' in next)) Object.assign(next, expected);
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(next, null, 2)}\n`);
    written.push(manifest.name);
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const args = process.argv.slice(2);
  if (args.some((arg) => arg !== '--write')) {
    console.error('usage: node scripts/package-metadata.mjs [--write]');
    process.exit(2);
  }
  if (args.includes('--write')) {
    const written = writeMetadata(root);
    console.log(
      written.length === 0
        ? 'every public package.json is up to date'
        : `wrote ${written.join(', ')}`,
    );
  }
  const findings = metadataFindings(root);
  for (const finding of findings) console.error(`✗ ${finding}`);
  if (findings.length > 0) {
    console.error('fix: node scripts/package-metadata.mjs --write');
    process.exit(1);
  }
  console.log('repository, homepage and bugs: every public package names the repository');
}
