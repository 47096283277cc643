import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedAnswer, scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { openAppraiser } from './appraiser.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const answers = new Map<string, ScriptedAnswer>();
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-recall-'));
  dirs.push(dir);
  const appraiser = openAppraiser({
    directory: dir,
    model: scriptedAppraiserModel((report) => answers.get(report) ?? { quotes: [] }),
  });
  appraiser.setAppraisal('on');
  return appraiser;
}

const strong = 'Bob restored the payments database after the outage.';
const mild = 'Bob reviewed the payments dashboard copy.';
answers.set(strong, {
  quotes: [strong],
  interpretation: { support: 1, benefit: 1_000_000, regard_gain: 900_000, evidence: strong },
});
answers.set(mild, { quotes: ['reviewed the payments dashboard'] });

function counts(dir: string): Record<string, number> {
  const db = new Database(join(dir, 'memory.sqlite'), { readonly: true });
  try {
    const tables = [
      'sources',
      'queue',
      'queue_versions',
      'assessments',
      'relationships',
      'supersessions',
    ];
    return Object.fromEntries(
      tables.map((table) => [
        table,
        (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

describe('recall', () => {
  it('ranks by similarity, adds default priority only for a known intensity, and creates nothing', async () => {
    const appraiser = setup();
    const a = appraiser.retainSource({ text: mild, owner: 'alice', scope: 'team', subject: 'bob' });
    const b = appraiser.retainSource({
      text: strong,
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    appraiser.retainSource({ text: strong, owner: 'alice', scope: 'elsewhere', subject: 'bob' });
    await appraiser.run();
    const before = counts(appraiser.directory);
    const result = await appraiser.recall({ owner: 'alice', scope: 'team', query: 'payments' });
    expect(counts(appraiser.directory)).toEqual(before);
    expect(result._tag).toBe('Right');
    if (result._tag !== 'Right') return;
    // Both match "payments" equally; only the appraised source has an intensity to add.
    expect(result.right.ranked).toEqual([
      { sourceId: b.sourceId, score: 1_000_000 + 250_000 },
      { sourceId: a.sourceId, score: 1_000_000 },
    ]);
    expect(result.right.context.text).toContain('positive: benefit=1000000');
    appraiser.close();
  });

  it('adds no default priority when the caller supplies appraisal controls or recall is off', async () => {
    const appraiser = setup();
    appraiser.retainSource({ text: strong, owner: 'alice', scope: 'team', subject: 'bob' });
    await appraiser.run();
    const explicit = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'payments',
      appraisal: { priority: 7 },
    });
    expect(explicit._tag === 'Right' && explicit.right.ranked[0]?.score).toBe(1_000_007);
    appraiser.setAppraisal('off');
    appraiser.applyPending();
    const off = await appraiser.recall({ owner: 'alice', scope: 'team', query: 'payments' });
    // Disabling recall defaults keeps evidence and recall; it only drops the default priority.
    expect(off._tag === 'Right' && off.right.ranked[0]?.score).toBe(1_000_000);
    appraiser.close();
  });

  it('applies scope, availability and the similarity floor before any priority', async () => {
    const appraiser = setup();
    const kept = appraiser.retainSource({
      text: strong,
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    const withdrawn = appraiser.retainSource({
      text: `${strong} Again.`,
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    await appraiser.run();
    appraiser.withdrawSource(withdrawn.sourceId);
    appraiser.setLimits({ recallFloor: 600_000 });
    appraiser.applyPending();
    const result = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'payments outage unrelated words',
    });
    expect(result._tag === 'Right' && result.right.ranked).toEqual([]);
    const near = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'payments outage',
    });
    expect(near._tag === 'Right' && near.right.ranked.map((entry) => entry.sourceId)).toEqual([
      kept.sourceId,
    ]);
    appraiser.close();
  });

  it('lets a superseded interpretation contribute nothing', async () => {
    const appraiser = setup();
    appraiser.retainSource({ text: strong, owner: 'alice', scope: 'team', subject: 'bob' });
    await appraiser.run();
    const correction = 'Correction: it was Dan who restored the payments database.';
    answers.set(correction, {
      quotes: ['it was Dan who restored the payments database'],
      interpretation: {
        support: 1,
        benefit: 0,
        evidence: 'it was Dan who restored the payments database',
        correction: 1,
      },
    });
    appraiser.retainSource({ text: correction, owner: 'alice', scope: 'team', subject: 'bob' });
    await appraiser.run();
    const result = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'restored payments database',
    });
    expect(result._tag).toBe('Right');
    if (result._tag !== 'Right') return;
    expect(result.right.context.text).not.toContain('benefit=1000000');
    expect(result.right.context.text).toContain(JSON.stringify(strong));
    appraiser.close();
  });

  it('shows task trust only in the matching task context', async () => {
    const appraiser = setup();
    const descriptor = 'rotate the API keys';
    const text = `Bob was asked to ${descriptor} and did it cleanly.`;
    answers.set(text, {
      quotes: [descriptor, 'did it cleanly'],
      interpretation: {
        support: 1,
        trust_gain: 700_000,
        evidence: 'did it cleanly',
        task: descriptor,
      },
    });
    appraiser.describeTask('T-4', descriptor);
    appraiser.retainSource({ text, owner: 'alice', scope: 'team', subject: 'bob', task: 'T-4' });
    await appraiser.run();
    const matching = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'API keys',
      task: 'T-4',
    });
    const other = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'API keys',
      task: 'T-5',
    });
    expect(matching._tag === 'Right' && matching.right.context.text).toContain(
      'task "T-4": trust_gain=700000',
    );
    expect(other._tag === 'Right' && other.right.context.text).not.toContain('trust_gain');
    appraiser.close();
  });

  it('with recall defaults off selects no appraisal rows; an explicit request still does', async () => {
    const appraiser = setup();
    appraiser.retainSource({ text: strong, owner: 'alice', scope: 'team', subject: 'bob' });
    await appraiser.run();
    appraiser.setAppraisal('off');
    appraiser.applyPending();
    const off = await appraiser.recall({ owner: 'alice', scope: 'team', query: 'payments' });
    expect(off._tag === 'Right' && off.right.context.text).toContain(JSON.stringify(strong));
    expect(off._tag === 'Right' && off.right.context.text).not.toMatch(
      /queue #|assessment #|relationship #/,
    );
    const explicit = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'payments',
      appraisal: { priority: 0 },
    });
    expect(explicit._tag === 'Right' && explicit.right.context.text).toContain('assessment #');
    appraiser.close();
  });

  it('renders no evidence group for a result with no known intensity', async () => {
    const appraiser = setup();
    // The mild report's answer is support 0: every dimension unknown.
    const { sourceId } = appraiser.retainSource({
      text: mild,
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    await appraiser.run();
    expect(appraiser.assessments()).toHaveLength(1);
    const result = await appraiser.recall({
      owner: 'alice',
      scope: 'team',
      query: 'payments',
      appraisal: { priority: 500_000 },
    });
    expect(result._tag === 'Right' && result.right.ranked).toEqual([
      { sourceId, score: 1_000_000 },
    ]);
    expect(result._tag === 'Right' && result.right.context.text).not.toMatch(
      /queue #|assessment #/,
    );
    appraiser.close();
  });

  it('keeps only sources about or reported by the participant, and of the task asked', async () => {
    const appraiser = setup();
    const aboutBob = appraiser.retainSource({
      text: 'Bob paid the invoice.',
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    const byBob = appraiser.retainSource({
      text: 'Carol paid the invoice.',
      owner: 'bob',
      scope: 'team',
      subject: 'carol',
      task: 'T-9',
    });
    appraiser.retainSource({ text: 'Dan paid the invoice.', owner: 'carol', scope: 'team' });
    const ids = async (request: { participant?: string; task?: string }) => {
      const result = await appraiser.recall({
        owner: 'x',
        scope: 'team',
        query: 'invoice',
        ...request,
      });
      return result._tag === 'Right' ? result.right.ranked.map((entry) => entry.sourceId) : [];
    };
    expect(await ids({})).toHaveLength(3);
    expect(await ids({ participant: 'bob' })).toEqual([byBob.sourceId, aboutBob.sourceId]);
    expect(await ids({ task: 'T-9' })).toEqual([byBob.sourceId]);
    expect(await ids({ participant: 'bob', task: 'T-8' })).toEqual([]);
    appraiser.close();
  });

  it('refuses an unknown context revision', async () => {
    const appraiser = setup();
    expect(
      await appraiser.recall({ owner: 'a', scope: 's', query: 'x', revision: 5 }),
    ).toMatchObject({
      _tag: 'Left',
    });
    expect((await appraiser.recall({ owner: 'a', scope: 's', query: 'x', revision: 3 }))._tag).toBe(
      'Right',
    );
    appraiser.close();
  });
});
