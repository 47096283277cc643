import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { distill } from '@mecha/distill';
import { generateHome } from '@mecha/fixtures/home';
import { createScriptedModel } from '@mecha/local-model';
import { openHome } from '@mecha/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';
import { type HttpGraph, startHttpGraph } from './http-graph.js';

// mecha pointed at a remote graph: a real `mecha-graph-mcp --http` process with a bearer token,
// and a home whose [[mcp]] entry names its url and the variable the token is in. Distillation
// (the scripted model: no real weights can exist here) pushes over Streamable HTTP, and every
// review act goes through the built `mecha graph` command, as over stdio.

const token = 'remote-graph-token-0123456789abcdef';
const now = new Date('2026-10-01T00:00:00Z');

interface Item {
  readonly id: number;
  readonly text: string;
  readonly status: string;
}
interface Page {
  readonly items: Item[];
  readonly total: number;
}

function reply(prompt: string): string {
  if (prompt.includes('\nFollow-up question about the same session.')) {
    return JSON.stringify({
      interpretation: 'The run did what it was asked.',
      claims: [],
      prediction: '',
      expected_act: 'no_act',
      goal: null,
    });
  }
  return JSON.stringify({
    skip: false,
    episode:
      'Reviewed the grant with Priya Nair. Priya Nair is at Brown. Omar Haddad works at Initech.',
  });
}

/** A generated home whose graph entry is `url` (and `token_env`), not a command. */
function remoteHome(url: string, tokenEnv: string | null = 'MECHA_GRAPH_TOKEN'): string {
  const home = join(tempDir('mecha-graph-remote-'), 'home');
  generateHome({
    path: home,
    seed: 'graph-remote',
    sessions: 6,
    start: new Date('2026-08-01T00:00:00Z'),
    days: 3,
  });
  const config = join(home, 'config.toml');
  const text = readFileSync(config, 'utf8');
  expect(text).toContain('command = "mecha-graph-mcp"');
  writeFileSync(
    config,
    text.replace(
      'command = "mecha-graph-mcp"',
      `url = ${JSON.stringify(url)}${tokenEnv === null ? '' : `\ntoken_env = ${JSON.stringify(tokenEnv)}`}`,
    ),
  );
  return home;
}

const withToken = (value = token) => ({ MECHA_GRAPH_TOKEN: value });

function review(home: string, env: Record<string, string> = withToken()) {
  const { run, json } = mechaJson<{ facts: Page; corrections: Page }>(
    ['--home', home, 'graph', 'review', '--json'],
    env,
  );
  expect(run.code, run.stderr).toBe(0);
  return json;
}

describe('mecha against a remote graph over Streamable HTTP', () => {
  let folder: string;
  let owner: HttpGraph;
  let home: string;

  beforeAll(async () => {
    folder = tempDir('mecha-graph-remote-db-');
    owner = await startHttpGraph(['--db', join(folder, 'graph.db'), '--role', 'owner'], token);
    home = remoteHome(owner.url);
  });

  afterAll(async () => {
    await owner.stop();
  });

  it('distils into it, lists its queue and approves over HTTP', async () => {
    const result = await distill({
      home: openHome(home, { clock: () => now }),
      model: createScriptedModel(reply, { name: 'graph-remote' }),
      clock: () => now,
      env: withToken(),
    });
    if (result.state !== 'done') throw new Error(result.message);
    expect(result.report.stopped).toBeUndefined();
    expect(result.report.counts.pushed, JSON.stringify(result.report.sessions)).toBeGreaterThan(0);
    expect(result.report.graph.inserted).toBe(result.report.counts.pushed);

    const queue = review(home);
    const brown = queue.facts.items.find((item) => item.text === 'Priya Nair is at Brown');
    expect(brown?.status).toBe('staged');

    const approved = mecha(['--home', home, 'graph', 'approve', `f${brown?.id}`], withToken());
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain('is now a belief');
    const shown = mechaJson<Page>(
      ['--home', home, 'graph', 'show', 'Priya Nair', '--json'],
      withToken(),
    );
    expect(shown.json.items.find((item) => item.id === brown?.id)?.status).toBe('accepted');
    expect(review(home).facts.items.some((item) => item.id === brown?.id)).toBe(false);
    expect(mecha(['--home', home, 'doctor']).stdout).toContain(`graph       ${owner.url}`);
  });

  it('says which variable the token comes from when it is wrong or missing, and writes nothing', () => {
    const staged = review(home).facts.items[0] as Item;
    expect(staged).toBeDefined();
    const before = snapshot(home);

    const wrong = mecha(['--home', home, 'graph', 'approve', `f${staged.id}`], withToken('nope'));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`the graph at ${owner.url}`);
    expect(wrong.stderr).toContain('refused the bearer token (HTTP 401)');
    expect(wrong.stderr).toContain('$MECHA_GRAPH_TOKEN');
    expect(wrong.stdout).toBe('');

    const missing = mecha(['--home', home, 'graph', 'approve', `f${staged.id}`], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      'takes its bearer token from $MECHA_GRAPH_TOKEN, which is not set',
    );

    // A queue that could not be read is a failure, never an empty queue.
    const listed = mecha(['--home', home, 'graph', 'review', '--json'], withToken('nope'));
    expect(listed.code).toBe(1);
    expect(listed.stdout).toBe('');

    const noTokenEnv = remoteHome(owner.url, null);
    const none = mecha(['--home', noTokenEnv, 'graph', 'review'], withToken());
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no token is sent');
    expect(none.stderr).toContain('token_env = "MECHA_GRAPH_TOKEN"');

    // The loopback server's Host guard refuses a name it does not know as loopback (HTTP 403).
    const mapped = remoteHome(owner.url.replace('127.0.0.1', '[::ffff:127.0.0.1]'));
    const forbidden = mecha(['--home', mapped, 'graph', 'review'], withToken());
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('refused this client (HTTP 403)');
    expect(forbidden.stderr).toContain('$MECHA_GRAPH_TOKEN');
    expect(forbidden.stderr).toContain('Host or Origin that is not a loopback name');

    expect(snapshot(home)).toEqual(before);
    const after = review(home).facts.items.find((item) => item.id === staged.id);
    expect(after?.status).toBe('staged');
  });

  it('names the address it cannot reach and how to start the server there', async () => {
    const gone = await startHttpGraph(['--db', join(folder, 'gone.db')], token);
    await gone.stop();
    const away = remoteHome(gone.url);
    const before = snapshot(away);
    const listed = mecha(['--home', away, 'graph', 'review', '--json'], withToken());
    expect(listed.code).toBe(1);
    expect(listed.stdout).toBe('');
    expect(listed.stderr).toContain(`cannot reach the graph at ${gone.url}`);
    expect(listed.stderr).toContain("start it there with 'mecha-graph-mcp --http'");
    expect(listed.stderr).toContain('fix the [[mcp]] url');
    expect(snapshot(away)).toEqual(before);

    const result = await distill({
      home: openHome(away, { clock: () => now }),
      model: createScriptedModel(reply, { name: 'graph-remote' }),
      clock: () => now,
      env: withToken(),
    });
    if (result.state !== 'done') throw new Error(result.message);
    expect(result.report.stopped?.reason).toBe('graph_unavailable');
    expect(result.report.stopped?.message).toContain(`cannot reach the graph at ${gone.url}`);
    expect(result.report.counts.pushed).toBe(0);
  });

  it('says a distiller-only server cannot take the owner’s acts, and where to point instead', async () => {
    const distiller = await startHttpGraph(['--db', join(folder, 'graph.db')], token);
    try {
      const other = remoteHome(distiller.url);
      expect(review(other).facts.total).toBeGreaterThan(0);
      const refused = mecha(['--home', other, 'graph', 'approve', 'f1'], withToken());
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('it serves as distiller');
      expect(refused.stderr).toContain('mecha-graph-mcp --http --role owner');
    } finally {
      await distiller.stop();
    }
  });

  it('refuses a token written into config.toml, naming the line and what to do', () => {
    const literal = remoteHome(owner.url);
    const config = join(literal, 'config.toml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace('token_env = "MECHA_GRAPH_TOKEN"', `token = "${token}"`),
    );
    const run = mecha(['--home', literal, 'graph', 'review'], withToken());
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /mcp\[0\]\.token \(line \d+\) is refused: config\.toml must hold no secret/,
    );
    expect(run.stderr).toContain('token_env = "MECHA_GRAPH_TOKEN"');
    expect(run.stderr).not.toContain(token);
  });
});
