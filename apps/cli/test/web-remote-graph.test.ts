// The web board's review page against a remote graph, in a real browser: a real
// `mecha-graph-mcp --http --role owner` process with a bearer token, `mecha web` as a person
// starts it over a home whose [[mcp]] entry names the graph's url and token_env, and Debian's
// chromium through playwright-core. Screenshots go to test-artifacts/web (git-ignored).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectGraph } from '@mecha/distill';
import { rightOrThrow } from '@mecha/errors';
import { generateHome } from '@mecha/fixtures/home';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBoard, launchChromium } from './browser.js';
import { mechaJson, startWeb, tempDir } from './helpers.js';
import { type HttpGraph, startHttpGraph } from './http-graph.js';

const artifacts = fileURLToPath(new URL('../test-artifacts/web/', import.meta.url));

const token = 'web-remote-graph-token-0123456789';
let graph: HttpGraph;
let home: string;
let board: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let browser: Browser;

function env(graphToken: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    MECHA_HOME: home,
    MECHA_GRAPH_TOKEN: graphToken,
  };
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  const folder = tempDir('mecha-web-remote-');
  graph = await startHttpGraph(['--db', join(folder, 'graph.db'), '--role', 'owner'], token);
  home = join(folder, 'home');
  generateHome({ path: home, seed: 'web-remote', sessions: 3 });
  const config = join(home, 'config.toml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').replace(
      'command = "mecha-graph-mcp"',
      `url = ${JSON.stringify(graph.url)}\ntoken_env = "MECHA_GRAPH_TOKEN"`,
    ),
  );
  // A candidate placed as distillation places one, over HTTP with the token.
  const placer = await connectGraph(
    {
      name: 'graph',
      url: graph.url,
      token_env: 'T',
      args: [],
      env: {},
      prefix_tools: false,
      capabilities: {},
    },
    { env: { T: token } },
  );
  const placing = rightOrThrow(placer, 'the placer’s connection');
  const placed = await placing.call('kg_upsert', {
    kind: 'episode',
    source: 'agent:mecha',
    source_id: 'session-remote-1',
    occurred_at: '2026-11-20T10:00:00Z',
    body: 'Ana confirmed the venue.',
    meta: { relations: [{ subject: 'Ana', predicate: 'works at', object: 'Northwind' }] },
  });
  await placing.close();
  expect(placed._tag).toBe('Right');

  ({ server: board, base, exited } = await startWeb(env(token)));
  browser = await launchChromium();
});

afterAll(async () => {
  await closeBoard(browser, board, exited);
  await graph?.stop();
});

describe('the review page against a graph over Streamable HTTP', () => {
  it('lists the remote candidates and approves one, which the CLI then reads as a belief', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/review`);
    const fact = page.locator('#facts > li', { hasText: 'Ana works at Northwind' });
    await expect(fact.count()).resolves.toBe(1);
    const id = await fact.getAttribute('data-fact');
    await page.screenshot({ path: join(artifacts, 'review-remote.png'), fullPage: true });
    await fact.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(`Approved fact ${id}`).waitFor({ timeout: 30_000 });
    await expect(page.locator('#facts > li').count()).resolves.toBe(0);
    await page.close();

    const shown = mechaJson<{ items: { id: number; status: string }[] }>(
      ['graph', 'show', 'Ana', '--json'],
      env(token),
    );
    expect(shown.run.code, shown.run.stderr).toBe(0);
    expect(shown.json.items.find((item) => String(item.id) === id)?.status).toBe('accepted');
  });

  it('stops cleanly on Ctrl-C', async () => {
    board.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
