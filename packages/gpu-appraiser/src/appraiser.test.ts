import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { openAppraiser } from './appraiser.js';
import { AppraiserInputError } from './appraiser-error.js';
import type { AppraiserOptions } from './appraiser-types.js';
import { currentProcessor, previousProcessor } from './processor.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function directory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-'));
  dirs.push(dir);
  return dir;
}

const report = 'Bob fixed the login page for the release. It saved the launch.';
const helpful = scriptedAppraiserModel(() => ({
  quotes: ['Bob fixed the login page', 'It saved the launch.'],
  interpretation: {
    support: 1,
    benefit: 800_000,
    consequence: 2,
    confidence: 700_000,
    regard_gain: 600_000,
    evidence: 'Bob fixed the login page',
  },
}));

function enabled(options: Partial<AppraiserOptions> = {}) {
  const appraiser = openAppraiser({ directory: directory(), model: helpful, ...options });
  appraiser.setAppraisal('on');
  appraiser.applyPending();
  return appraiser;
}

function rows(dir: string, table: string): number {
  const db = new Database(join(dir, 'memory.sqlite'), { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('intake and the queue', () => {
  it('starts off: a report is retained with its exact text and gets no queue', () => {
    const appraiser = openAppraiser({ directory: directory() });
    const status = appraiser.status();
    expect(status.flags).toEqual({ writes: false, recall: false, background: false });
    const retained = appraiser.retainSource({
      text: report,
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    expect(retained).toMatchObject({ queueId: null, reason: 'writes_off' });
    expect(appraiser.status().sources).toBe(1);
    appraiser.close();
  });

  it('keeps a new setting pending until a quiet boundary, and status says so', () => {
    const appraiser = openAppraiser({ directory: directory() });
    expect(appraiser.setAppraisal('on')._tag).toBe('Right');
    expect(appraiser.status().pending.map((control) => control.kind)).toEqual(['flags']);
    expect(appraiser.status().flags.writes).toBe(false);
    // Intake is a quiet boundary: the setting applies, then the report is queued.
    const retained = appraiser.retainSource({
      text: report,
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    expect(retained.queueId).not.toBeNull();
    expect(appraiser.status()).toMatchObject({
      pending: [],
      flags: { writes: true, recall: true },
    });
    appraiser.close();
  });

  it('gives a source without a subject no queue', () => {
    const appraiser = enabled();
    expect(appraiser.retainSource({ text: report, owner: 'alice', scope: 'team' })).toMatchObject({
      queueId: null,
      reason: 'no_subject',
    });
    expect(appraiser.status().queue.pending).toBe(0);
    appraiser.close();
  });

  it('writes a source and its queue in one transaction: a failed queue keeps no source', () => {
    const appraiser = enabled();
    const dir = appraiser.directory;
    const db = new Database(join(dir, 'memory.sqlite'));
    db.exec('DROP TABLE queue_versions');
    db.close();
    expect(() =>
      appraiser.retainSource({ text: report, owner: 'alice', scope: 'team', subject: 'bob' }),
    ).toThrow();
    expect(rows(dir, 'sources')).toBe(0);
    appraiser.close();
  });

  it('refuses an empty report or one with a lone surrogate, keeping nothing', () => {
    const appraiser = enabled();
    expect(() =>
      appraiser.retainSource({ text: ' ', owner: 'a', scope: 's', subject: 'b' }),
    ).toThrow(AppraiserInputError);
    expect(() =>
      appraiser.retainSource({ text: 'bad \ud800 text', owner: 'a', scope: 's', subject: 'b' }),
    ).toThrow(/well-formed/);
    expect(appraiser.status().sources).toBe(0);
    appraiser.close();
  });
});

describe('a run', () => {
  it('completes a queue with one assessment and one relationship of one exposure', async () => {
    const appraiser = enabled();
    const { queueId, sourceId } = appraiser.retainSource({
      text: report,
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    const result = await appraiser.run();
    expect(result.state).toBe('done');
    expect(result.modelCalls).toBe(2);
    expect(result.items).toEqual([
      { queueId, sourceId, state: 'complete', assessmentId: expect.any(Number) },
    ]);
    const [assessment] = appraiser.assessments();
    expect(assessment).toMatchObject({
      schema: 2,
      subject: 'bob',
      owner: 'alice',
      benefit: 800_000,
      harm: null,
      consequence: 2,
      evidence: 'Bob fixed the login page',
      commitment: '',
      relationship: {
        exposure: 1,
        regardGain: 600_000,
        regardLoss: null,
        trustGain: null,
        spans: [{ field: 'evidence', start: 0, end: 24 }],
      },
    });
    expect(assessment?.processor).toBe(currentProcessor);
    appraiser.close();
  });

  it('never lets a completed queue create a second exposure', async () => {
    const appraiser = enabled();
    const { queueId } = appraiser.retainSource({
      text: report,
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    await appraiser.run();
    expect(appraiser.retry([queueId as number])).toEqual([
      {
        queueId,
        state: 'refused',
        reason: 'it is complete; only refused or interrupted work is retried',
      },
    ]);
    expect((await appraiser.run()).items).toEqual([]);
    const db = new Database(join(appraiser.directory, 'memory.sqlite'));
    const relationship = db.prepare('SELECT * FROM relationships').get() as Record<string, unknown>;
    expect(() =>
      db
        .prepare(
          `INSERT INTO relationships (assessment_id, queue_id, subject, owner, scope, exposure, spans, status)
           VALUES (?, ?, 'bob', 'a', 's', 1, '[]', 'current')`,
        )
        .run(relationship.assessment_id, queueId),
    ).toThrow(/UNIQUE/);
    db.close();
    expect(appraiser.assessments().map((a) => a.relationship?.exposure)).toEqual([1]);
    appraiser.close();
  });

  it('does not run while off, paused or stopped; an explicit run never enables background work', async () => {
    const appraiser = openAppraiser({ directory: directory(), model: helpful });
    expect((await appraiser.run()).state).toBe('off');
    appraiser.setAppraisal('on');
    appraiser.setPolicy('paused');
    expect((await appraiser.run()).state).toBe('paused');
    appraiser.setPolicy('stopped');
    expect((await appraiser.run()).state).toBe('stopped');
    appraiser.setPolicy('run');
    expect((await appraiser.run()).state).toBe('done');
    expect(appraiser.status().flags.background).toBe(false);
    expect((await appraiser.run({ background: true })).state).toBe('background_off');
    appraiser.setAppraisal({ background: true });
    expect((await appraiser.run({ background: true })).state).toBe('done');
    // `on` keeps the background setting.
    appraiser.setAppraisal('on');
    appraiser.applyPending();
    expect(appraiser.status().flags.background).toBe(true);
    appraiser.close();
  });

  it('refuses an oversized prompt before any model call, and an unchanged retry calls no model', async () => {
    const model = scriptedAppraiserModel(() => ({ quotes: [] }));
    const appraiser = enabled({ model });
    expect(appraiser.setLimits({ promptBytes: 2000 })._tag).toBe('Right');
    appraiser.applyPending();
    appraiser.retainSource({ text: 'x'.repeat(3000), owner: 'a', scope: 's', subject: 'bob' });
    const first = await appraiser.run();
    expect(first.items[0]).toMatchObject({
      state: 'refused',
      reason: expect.stringMatching(/2000-byte limit/),
    });
    expect(model.prompts).toHaveLength(0);
    // Refused work stays refused on later runs (no model call per tick)…
    expect((await appraiser.run()).items).toEqual([]);
    // …and an explicit retry under the same limits is refused again before the model.
    appraiser.retry();
    expect((await appraiser.run()).items[0]?.state).toBe('refused');
    expect(model.prompts).toHaveLength(0);
    appraiser.close();
  });

  it('refuses bad limits as a status naming each field, and applies nothing', () => {
    const appraiser = enabled();
    const result = appraiser.setLimits({ sourceRows: 65, outputTokens: 0 });
    expect(result._tag).toBe('Left');
    if (result._tag === 'Left') {
      expect(result.left.problems.map((problem) => problem.field)).toEqual([
        'outputTokens',
        'sourceRows',
      ]);
    }
    expect(appraiser.status().limits.sourceRows).toBe(64);
    expect(appraiser.status().pending).toEqual([]);
    appraiser.close();
  });

  it('cancels the active source when a new configuration arrives mid-run', async () => {
    let appraiser: ReturnType<typeof openAppraiser> | undefined;
    const model = scriptedAppraiserModel(() => ({ quotes: ['Bob fixed the login page'] }), {
      // At the third token of call 1, someone changes the configuration.
      onToken: (emitted) => {
        if (emitted === 3) appraiser?.setLimits({ sourceRows: 8 });
      },
    });
    appraiser = enabled({ model });
    const { queueId } = appraiser.retainSource({
      text: report,
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    const run = await appraiser.run();
    expect(run).toMatchObject({ state: 'cancelled', items: [{ queueId, state: 'interrupted' }] });
    expect(appraiser.assessments()).toEqual([]);
    // The new setting waits for the next quiet boundary.
    expect(appraiser.status().pending.map((control) => control.kind)).toEqual(['limits']);
    appraiser.close();
  });

  it('refuses a run without a model', async () => {
    const appraiser = openAppraiser({ directory: directory() });
    appraiser.setAppraisal('on');
    expect((await appraiser.run()).state).toBe('no_model');
    appraiser.close();
  });
});

describe('processors and imported configurations', () => {
  it('keeps schema 1 results readable under their recorded processor', () => {
    const appraiser = enabled();
    const dir = appraiser.directory;
    const { sourceId } = appraiser.retainSource({ text: report, owner: 'a', scope: 's' });
    const db = new Database(join(dir, 'memory.sqlite'));
    db.prepare(
      `INSERT INTO assessments (schema, queue_id, source_id, subject, owner, scope, processor, model, support,
        benefit, harm, arousal, consequence, confidence, evidence, quotes, status, created_at)
       VALUES (1, NULL, ?, 'bob', 'a', 's', ?, 'm', 1, 5, NULL, NULL, 1, NULL, 'Bob fixed', '["Bob fixed"]', 'current', 'now')`,
    ).run(sourceId, previousProcessor);
    db.close();
    const [old] = appraiser.assessments();
    expect(old).toMatchObject({
      schema: 1,
      processor: previousProcessor,
      benefit: 5,
      evidence: 'Bob fixed',
    });
    expect(old).not.toHaveProperty('task');
    expect(old).not.toHaveProperty('correction');
    appraiser.close();
  });

  it('keeps queued work of the previous processor bound to it: never run, never retried', async () => {
    const model = scriptedAppraiserModel(() => ({ quotes: [] }));
    const appraiser = enabled({ model });
    const { sourceId } = appraiser.retainSource({ text: report, owner: 'a', scope: 's' });
    const db = new Database(join(appraiser.directory, 'memory.sqlite'));
    const queueId = db
      .prepare(
        "INSERT INTO queue (source_id, processor, config_version, created_at) VALUES (?, ?, 0, 'now')",
      )
      .run(sourceId, previousProcessor).lastInsertRowid as number;
    db.prepare("INSERT INTO queue_versions VALUES (?, 1, 'interrupted', NULL, 'now')").run(queueId);
    db.close();
    expect((await appraiser.run()).items).toEqual([]);
    expect(appraiser.retry([queueId])[0]).toMatchObject({
      state: 'refused',
      reason: expect.stringMatching(/bound to processor/),
    });
    expect(appraiser.status().boundToPreviousProcessor).toBe(1);
    expect(model.prompts).toHaveLength(0);
    appraiser.close();
  });

  it('permits recall but no writes or generation under an imported configuration', async () => {
    const appraiser = enabled();
    appraiser.retainSource({ text: report, owner: 'a', scope: 's', subject: 'bob' });
    await appraiser.run();
    appraiser.importConfiguration({ flags: 3 });
    appraiser.applyPending();
    expect(appraiser.status().imported).toBe(true);
    expect(
      appraiser.retainSource({ text: 'Bob again', owner: 'a', scope: 's', subject: 'bob' }),
    ).toMatchObject({
      queueId: null,
      reason: 'imported_configuration',
    });
    expect((await appraiser.run()).state).toBe('imported_configuration');
    const recalled = await appraiser.recall({ owner: 'a', scope: 's', query: 'login page' });
    expect(recalled._tag).toBe('Right');
    // An explicit appraisal control selects the current processor again.
    appraiser.setAppraisal('on');
    appraiser.applyPending();
    expect(appraiser.status().imported).toBe(false);
    appraiser.close();
  });
});
