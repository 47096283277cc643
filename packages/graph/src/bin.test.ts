import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { binPath, callOk, callTool, spawnGraphServer } from './__fixtures__/spawn-graph-server.js';
import { episode, tempFolder } from './__fixtures__/temp-graph.js';
import type { CorrectionReport } from './apply-corrections.js';
import { graphTools } from './create-graph-server.js';
import type { EpisodeDetail, EpisodeItem, FactItem } from './read-graph/items.js';
import type { Page } from './read-graph/page.js';
import type { UpsertResult } from './upsert-episode.js';

const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const made = tempFolder();
  cleanups.push(made.remove);
  return made.folder;
}

async function server(args: readonly string[], environment: Record<string, string> = {}) {
  const spawned = await spawnGraphServer(args, environment);
  cleanups.push(spawned.close);
  return spawned;
}

describe('the built mecha-graph-mcp over stdio', () => {
  it('stores episodes, reads them back, corrects a belief, and the file holds the rows', async () => {
    const path = join(folder(), 'graph.db');
    const { client } = await server(['--db', path]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...graphTools.distiller].sort());

    const inserted = await callOk<UpsertResult>(client, 'kg_upsert', { ...episode() });
    expect(inserted).toMatchObject({ outcome: 'inserted', facts: { staged: 2 } });
    expect(await callOk<UpsertResult>(client, 'kg_upsert', { ...episode() })).toMatchObject({
      outcome: 'unchanged',
      episode_id: inserted.episode_id,
    });
    const second = await callOk<UpsertResult>(client, 'kg_upsert', {
      ...episode({ source_id: 'session-2', body: 'Planned the review with Priya Nair.' }),
    });
    expect(second.facts).toMatchObject({ staged: 0, supported: 2 });

    const listed = await callOk<Page<EpisodeItem>>(client, 'kg_episodes', {});
    expect(listed.total).toBe(2);
    expect(listed.items.map((item) => item.source_id).sort()).toEqual(['session-1', 'session-2']);
    const detail = await callOk<EpisodeDetail>(client, 'kg_get', {
      source: 'agent:mecha',
      source_id: 'session-1',
    });
    expect(detail.body).toBe(episode().body);
    expect(detail.facts).toHaveLength(2);

    const report = await callOk<CorrectionReport>(client, 'kg_correct', {
      source: 'agent:mecha',
      source_id: 'session-3',
      occurred_at: '2026-09-01 09:00:00',
      corrections: [
        { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale', about: 'Priya Nair' },
        { wrong: 'the deadline is the 14th' },
      ],
    });
    expect(report).toMatchObject({ applied: 1, denied: 0, to_review: 1, duplicate: 0 });

    const current = await callOk<Page<FactItem>>(client, 'kg_search', { subject: 'priya nair' });
    expect(current.items.map((item) => item.text).sort()).toEqual([
      'Priya Nair is a person',
      'Priya Nair is at Yale',
    ]);
    expect(current.suppressed.closed).toBe(1);
    for (const item of current.items) {
      expect(item.status).toBe('staged');
      expect(item.trust).toBe(0.5);
      expect(item.provenance.sources).toEqual([{ source: 'agent:mecha', trust: 0.5 }]);
    }

    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT count(*) AS n FROM episodes').get()).toEqual({ n: 2 });
    expect(
      db
        .prepare(
          `SELECT status, valid_to, closed_at IS NOT NULL AS closed FROM facts WHERE object = 'Brown'`,
        )
        .get(),
    ).toEqual({ status: 'closed', valid_to: '2026-09-01 09:00:00', closed: 1 });
    expect(
      db
        .prepare(
          `SELECT count(*) AS n FROM support s JOIN facts f ON f.id = s.fact_id WHERE f.object = 'Brown'`,
        )
        .get(),
    ).toEqual({ n: 2 });
    expect(
      db.prepare(`SELECT corrections_against FROM sources WHERE source = 'agent:mecha'`).get(),
    ).toEqual({
      corrections_against: 1,
    });
    expect(db.prepare(`SELECT status, review_reason FROM corrections ORDER BY id`).all()).toEqual([
      { status: 'applied', review_reason: null },
      { status: 'review', review_reason: 'no_match' },
    ]);
    db.close();
  });

  it('caps page sizes and pages through everything with next_offset', async () => {
    const { client } = await server(['--db', join(folder(), 'graph.db')]);
    const entities = Array.from({ length: 130 }, (_, index) => ({
      name: `Person ${index}`,
      type: 'person',
    }));
    await callOk(client, 'kg_upsert', { ...episode({ body: 'a quiet day', meta: { entities } }) });
    const first = await callOk<Page<FactItem>>(client, 'kg_search', { limit: 5000 });
    expect(first).toMatchObject({ limit: 100, limit_capped: true, total: 130, next_offset: 100 });
    expect(first.items).toHaveLength(100);
    const rest = await callOk<Page<FactItem>>(client, 'kg_review_list', {
      offset: 100,
      limit: 100,
    });
    expect(rest).toMatchObject({ limit_capped: false, next_offset: null });
    expect(rest.items).toHaveLength(30);
    const refused = await callTool(client, 'kg_search', { limit: 0 });
    expect(refused.isError).toBe(true);
  });

  it('stores hostile text exactly and refuses what is over the caps without dying', async () => {
    const path = join(folder(), 'graph.db');
    const { client } = await server(['--db', path]);
    const body = `Robert'); DROP TABLE episodes;--\u0000\u001b[2J\r\n${'ß'.repeat(1000)}`;
    const stored = await callOk<UpsertResult>(client, 'kg_upsert', {
      ...episode({ body, source_id: 'x"; DELETE FROM facts; --' }),
    });
    const back = await callOk<EpisodeDetail>(client, 'kg_get', { episode_id: stored.episode_id });
    expect(back.body).toBe(body);
    const huge = await callTool(client, 'kg_upsert', { ...episode({ body: 'z'.repeat(200_000) }) });
    expect(huge.isError).toBe(true);
    const [message] = huge.content;
    expect(message?.type === 'text' ? message.text : '').toMatch(/body is over 65536 characters/);
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT body FROM episodes').all()).toEqual([{ body }]);
    db.close();
  });

  it('gives the owner role review and redaction, which change the file', async () => {
    const path = join(folder(), 'graph.db');
    const { client } = await server(['--db', path, '--role', 'owner']);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...graphTools.owner].sort());
    await callOk(client, 'kg_upsert', { ...episode() });
    const queue = await callOk<Page<FactItem>>(client, 'kg_review_list', {});
    const brown = queue.items.find((item) => item.object === 'Brown');
    expect(
      await callOk(client, 'kg_review_decide', { fact_id: brown?.id, decision: 'reject' }),
    ).toMatchObject({
      status: 'rejected',
      denial_recorded: true,
    });
    expect(await callOk(client, 'kg_redact', { source: 'agent:mecha' })).toMatchObject({
      episodes_redacted: 1,
      facts_closed: 1,
    });
    const db = new Database(path, { readonly: true });
    expect(
      db.prepare('SELECT body, redacted_at IS NOT NULL AS redacted FROM episodes').get(),
    ).toEqual({
      body: '',
      redacted: 1,
    });
    expect(db.prepare(`SELECT status FROM facts ORDER BY id`).all()).toEqual([
      { status: 'retracted' },
      { status: 'rejected' },
    ]);
    expect(db.prepare('SELECT count(*) AS n FROM denials').get()).toEqual({ n: 1 });
    db.close();
  });

  it('finds its file through MECHA_GRAPH_DB, creating the folder, and --db wins over it', async () => {
    const base = folder();
    const fromEnvironment = join(base, 'env', 'nested', 'graph.db');
    const fromFlag = join(base, 'flag', 'graph.db');
    const first = await server([], { MECHA_GRAPH_DB: fromEnvironment });
    await callOk(first.client, 'kg_upsert', { ...episode() });
    expect(existsSync(fromEnvironment)).toBe(true);
    const second = await server(['--db', fromFlag], { MECHA_GRAPH_DB: fromEnvironment });
    await callOk(second.client, 'kg_upsert', { ...episode() });
    expect(existsSync(fromFlag)).toBe(true);
    expect(second.stderr()).toContain(`serving ${fromFlag} as distiller`);
  });

  it('explains a bad command line and exits non-zero', () => {
    const bad = spawnSync(process.execPath, [binPath, '--role', 'admin'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--role must be distiller or owner');
    expect(bad.stderr).toContain('usage: mecha-graph-mcp');
    const help = spawnSync(process.execPath, [binPath, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--db PATH');
  });
});
