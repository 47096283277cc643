import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generateHome } from '@mecha/fixtures/home';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';

function generated(): string {
  const path = join(tempDir(), 'home');
  generateHome({
    path,
    seed: 'distill-e2e',
    sessions: 40,
    start: new Date('2026-08-01T00:00:00Z'),
    days: 30,
  });
  return path;
}

describe('mecha distill', () => {
  it('prints its options with --help', () => {
    const run = mecha(['distill', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'Usage: mecha distill [--dry-run] [--limit N] [--session ID] [--server NAME] [--json]',
    );
    expect(run.stdout).toContain('--dry-run');
  });

  it('says how to configure a model, and fails, when [model] path is not set', () => {
    const home = tempDir();
    const run = mecha(['--home', home, 'distill']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('mecha distill: no model is configured ([model] path is not set)');
    expect(run.stderr).toContain(`Set [model] path in ${join(home, 'config.toml')}, for example:`);
    expect(run.stderr).toContain('  [model]\n  path = "models/');
  });

  it('names the problem when [model] path names a file that is not there', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.toml'), '[model]\npath = "models/none.gguf"\n');
    const run = mecha(['--home', home, 'distill']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the model file that [model] path names does not exist');
  });

  it('names a model URI it cannot fetch, and one of the wrong shape, leaving the home as it was', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const home = tempDir();
    const uri = `http://127.0.0.1:${port}/qwen.gguf`;
    writeFileSync(join(home, 'config.toml'), `[model]\npath = "${uri}"\n`);
    const before = snapshot(home);
    const run = mecha(['--home', home, 'distill']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `mecha distill: The model ${uri} named by [model] path in ${join(home, 'config.toml')} could not be fetched into ${join(home, 'models')}: ${uri} cannot be reached`,
    );
    expect(snapshot(home)).toEqual(before);

    writeFileSync(join(home, 'config.toml'), '[model]\npath = "hf:no-repo"\n');
    const shape = mecha(['--home', home, 'distill']);
    expect(shape.code).toBe(1);
    expect(shape.stderr).toContain('[model] path is a model URI mecha cannot fetch');
  });

  it('says what would be distilled with --dry-run --json, without a model, writing nothing', () => {
    const home = generated();
    const before = snapshot(home);
    const { run, json } = mechaJson<{
      state: string;
      report: { dryRun: boolean; server: string; counts: Record<string, number> };
    }>(['--home', home, 'distill', '--dry-run', '--json', '--limit', '5']);
    expect(run.code).toBe(0);
    expect(json.state).toBe('done');
    expect(json.report.dryRun).toBe(true);
    expect(json.report.server).toBe('graph');
    const looked =
      (json.report.counts.would_distill ?? 0) + (json.report.counts.would_mark_too_short ?? 0);
    expect(looked).toBeGreaterThan(0);
    expect(looked).toBeLessThanOrEqual(5);
    expect(snapshot(home)).toEqual(before);
  });

  it('prints the dry run as lines without --json', () => {
    const run = mecha(['--home', generated(), 'distill', '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^dry run: \d+ sessions? would be distilled into 'graph'/);
  });

  it("fails with distill's message when the named server is not configured", () => {
    const run = mecha(['--home', generated(), 'distill', '--dry-run', '--server', 'nope']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      "mecha distill: no [[mcp]] server named 'nope' in config — distillation stages episodes through the knowledge graph server and cannot run without it\n",
    );
  });

  it('stops early, exit 1, with the ledger untouched, when the model file cannot be loaded', () => {
    const home = generated();
    mkdirSync(join(home, 'models'), { recursive: true });
    writeFileSync(join(home, 'models', 'appraiser.gguf'), 'not a model');
    const before = snapshot(home);
    const run = mecha(['--home', home, 'distill', '--limit', '2']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('stopped early: the local model cannot be used');
    expect(run.stdout).toContain('left for a later run: 1 model call failed');
    expect(snapshot(home)).toEqual(before);
  });

  it('refuses a --limit that is not a whole number', () => {
    const run = mecha(['--home', tempDir(), 'distill', '--dry-run', '--limit', 'lots']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--limit');
  });
});
