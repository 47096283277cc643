import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, tempDir } from './helpers.js';

// Issue 27, defect 1: on a home made by `mecha init` (its [[mcp]] graph server is the bare
// command `mecha-graph-mcp`), every command that reaches the graph starts the server installed
// beside the CLI, whether or not `mecha-graph-mcp` is on PATH. PATH here holds only Node's own
// folder and the system's, as after `npm install -g @mecha/cli` with a prefix not on PATH; the
// graph's database goes to the test's own HOME (~/.mecha-graph/graph.db, the server's default).

function bareHome(): { home: string; env: Record<string, string> } {
  const folder = tempDir('mecha-graph-resolve-');
  const home = join(folder, 'home');
  const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: folder };
  expect(mecha(['init', '--home', home], env).code).toBe(0);
  return { home, env };
}

describe('the graph server of a home made by mecha init', () => {
  it('starts for graph review, search, show, approve and gossip without mecha-graph-mcp on PATH', () => {
    const { home, env } = bareHome();
    const review = mecha(['--home', home, 'graph', 'review'], env);
    expect(review.stderr).not.toContain('ENOENT');
    expect(review.code).toBe(0);
    // An empty queue says how it gets filled (defect 7).
    expect(review.stdout).toContain("Candidate facts arrive when 'mecha distill'");
    for (const args of [
      ['graph', 'search', 'anything'],
      ['gossip', '--entity', 'Ada'],
    ]) {
      const run = mecha(['--home', home, ...args], env);
      expect(run.stderr).not.toContain('ENOENT');
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
    // An item that does not exist is the graph's own refusal (exit 1), not a server that never
    // started: the message is the graph's, never spawn's.
    for (const args of [
      ['graph', 'show', '999'],
      ['graph', 'approve', '999'],
    ]) {
      const run = mecha(['--home', home, ...args], env);
      expect(run.stderr).not.toContain('ENOENT');
      expect(run.stderr).not.toContain('cannot start');
    }
    expect(existsSync(join(dirname(home), '.mecha-graph', 'graph.db'))).toBe(true);
  });

  it('doctor says the graph server resolves and starts (with --version: no database is opened)', () => {
    const { home, env } = bareHome();
    const { run, json } = mechaJson<{
      graphServer: { state: string; command?: string; version?: string };
    }>(['--home', home, 'doctor', '--json'], env);
    expect(run.code).toBe(0);
    expect(json.graphServer.state).toBe('started');
    expect(json.graphServer.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(mecha(['--home', home, 'doctor'], env).stdout).toMatch(
      /graph server +started: mecha-graph-mcp/,
    );
  });

  it('doctor says what to do when the graph server cannot start, and so does the command', () => {
    const { home, env } = bareHome();
    // A configured command that is nowhere: the message names the fix.
    const config = join(home, 'config.toml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(
        'command = "mecha-graph-mcp"',
        'command = "mecha-graph-mcp-nowhere"',
      ),
    );
    const review = mecha(['--home', home, 'graph', 'review'], env);
    expect(review.code).toBe(1);
    expect(review.stderr).toContain("'mecha-graph-mcp-nowhere' is not on PATH");
    const doctor = mecha(['--home', home, 'doctor'], env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain("'mecha-graph-mcp-nowhere' is not on PATH");
  });
});
