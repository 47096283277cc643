import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphReview, graphReview } from '../src/graph/graph-review.js';
import { boardApp, csrfToken, emptyHome, origin, post } from './helpers.js';

// The real graph server (@mecha/graph's built bin), spoken to over stdio by the SDK's client; the
// candidates are placed through its own kg_upsert, as distillation places them.
const require = createRequire(import.meta.url);
const graphBin = join(dirname(require.resolve('@mecha/graph/package.json')), 'dist', 'bin.js');

describe('the graph review queue', () => {
  let folder: string;
  let review: GraphReview;
  let app: Awaited<ReturnType<typeof boardApp>>['app'];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'mecha-web-graph-'));
    review = graphReview({
      command: process.execPath,
      args: [graphBin, '--db', join(folder, 'graph.db'), '--role', 'owner'],
    });
    const placed = await review.call('kg_upsert', {
      kind: 'episode',
      source: 'agent:mecha',
      source_id: 'session-1',
      occurred_at: '2026-11-20T10:00:00Z',
      body: 'Ana confirmed the venue. A stranger wrote <script>alert(1)</script>.',
      meta: {
        taint: 'third_party',
        relations: [
          { subject: 'Ana', predicate: 'works at', object: 'Northwind' },
          { subject: 'Mallory', predicate: 'says', object: '<script>alert("x")</script>' },
        ],
      },
    });
    expect(placed.ok).toBe(true);
    ({ app } = await boardApp(emptyHome(), { graph: review }));
  });

  afterAll(async () => {
    await review.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const factIds = async (): Promise<Map<string, string>> => {
    const text = await (await app.request(`${origin}/review`)).text();
    const ids = new Map<string, string>();
    for (const match of text.matchAll(
      /<li id="fact-(\d+)"[^>]*>[\s\S]*?<div class="run__answer">([^<]*)<\/div>/g,
    )) {
      ids.set(match[2] as string, match[1] as string);
    }
    return ids;
  };

  it('lists the staged candidates, a stranger’s markup as text', async () => {
    const text = await (await app.request(`${origin}/review`)).text();
    expect(text).toContain('Ana works at Northwind');
    expect(text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(text).not.toContain('<script>alert');
  });

  it('approves one and denies the other, and a denied one is never proposed again', async () => {
    const ids = await factIds();
    const approve = ids.get('Ana works at Northwind') as string;
    const deny = [...ids.entries()].find(([fact]) => fact.startsWith('Mallory'))?.[1] as string;
    const approved = await post(app, `/review/facts/${approve}`, {
      decision: 'accept',
      csrf: csrfToken,
    });
    expect(approved.status).toBe(200);
    expect(await approved.text()).toContain(`Approved fact ${approve}`);
    const denied = await post(app, `/review/facts/${deny}`, {
      decision: 'reject',
      csrf: csrfToken,
    });
    expect(await denied.text()).toContain('the denial is remembered');
    expect((await factIds()).size).toBe(0);
    // The same claim from a new episode is not staged again.
    const again = await review.call('kg_upsert', {
      kind: 'episode',
      source: 'agent:mecha',
      source_id: 'session-2',
      occurred_at: '2026-11-21T10:00:00Z',
      body: 'Mallory again.',
      meta: {
        relations: [
          { subject: 'Mallory', predicate: 'says', object: '<script>alert("x")</script>' },
        ],
      },
    });
    expect(again.ok).toBe(true);
    expect([...(await factIds()).keys()].some((fact) => fact.startsWith('Mallory'))).toBe(false);
    // Deciding it twice is the graph's refusal, shown as such.
    const twice = await post(app, `/review/facts/${deny}`, { decision: 'accept', csrf: csrfToken });
    expect(twice.status).toBe(409);
  });

  it('resolves a correction no single belief matched by dismissing it', async () => {
    const reported = await review.call('kg_correct', {
      source: 'agent:mecha',
      source_id: 'session-3',
      corrections: [{ wrong: 'Bob is at <b>Brown</b>', right: 'Bob is at Yale' }],
    });
    expect(reported.ok).toBe(true);
    const page = await (await app.request(`${origin}/review`)).text();
    const id = /<li id="correction-(\d+)"/.exec(page)?.[1];
    expect(id).toBeDefined();
    expect(page).toContain('Bob is at &lt;b&gt;Brown&lt;/b&gt;');
    const resolved = await post(app, `/review/corrections/${id}`, { fact_id: '', csrf: csrfToken });
    expect(resolved.status).toBe(200);
    expect(await resolved.text()).toContain(`Correction ${id}: dismissed.`);
  });

  it('redacts a source through the owner tool', async () => {
    const redacted = await post(app, '/review/redact', { source: 'agent:mecha', csrf: csrfToken });
    expect(redacted.status).toBe(200);
    expect(await redacted.text()).toContain(
      'Redacted every episode and correction from agent:mecha',
    );
  });

  it('says why when no graph server is configured', async () => {
    const { app: bare } = await boardApp(emptyHome(), {
      graphMissing: 'config.toml has no [[mcp]] server named graph',
    });
    expect(await (await bare.request(`${origin}/review`)).text()).toContain(
      'config.toml has no [[mcp]] server named graph',
    );
  });
});
