import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { openAppraiser } from './appraiser.js';
import { renderContext } from './render-context.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function directory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-lease-'));
  dirs.push(dir);
  return dir;
}

const strong = 'Bob restored the payments database after the outage.';
const model = scriptedAppraiserModel((report) =>
  report === strong
    ? {
        quotes: [strong],
        interpretation: { support: 1, benefit: 900_000, evidence: strong },
      }
    : { quotes: [] },
);

async function withEvidence() {
  const appraiser = openAppraiser({ directory: directory(), model });
  appraiser.setAppraisal('on');
  appraiser.retainSource({ text: strong, owner: 'alice', scope: 'team', subject: 'bob' });
  await appraiser.run();
  return appraiser;
}

describe('shared context leases', () => {
  it('records revision 4 and its rendering, and gives it back exactly after the memory moved on', async () => {
    const appraiser = await withEvidence();
    const shared = await appraiser.shareContext({
      owner: 'alice',
      scope: 'team',
      query: 'payments',
    });
    expect(shared).toMatchObject({
      _tag: 'Right',
      right: { revision: 4, policy: 4, reproduced: true },
    });
    if (shared._tag !== 'Right') return;
    expect(shared.right.context.text).toContain('assessment #');
    // The memory changes: the source is withdrawn and a new report arrives.
    appraiser.withdrawSource(1);
    appraiser.retainSource({ text: 'Dan fixed payments.', owner: 'alice', scope: 'team' });
    const now = await appraiser.recall({ owner: 'alice', scope: 'team', query: 'payments' });
    expect(now._tag === 'Right' && now.right.context.text).not.toBe(shared.right.context.text);
    const again = appraiser.readLease(shared.right.leaseId);
    expect(again).toEqual(shared);
    appraiser.close();
  });

  it('refuses a new lease of another revision, an unknown lease and an unknown recorded revision', async () => {
    const appraiser = await withEvidence();
    expect(
      await appraiser.shareContext({
        owner: 'alice',
        scope: 'team',
        query: 'payments',
        revision: 3,
      }),
    ).toEqual({
      _tag: 'Left',
      left: { kind: 'rejected', message: 'new shared leases use revision 4, not 3' },
    });
    expect(appraiser.readLease(99)).toEqual({
      _tag: 'Left',
      left: { kind: 'not_found', message: 'no shared lease #99' },
    });
    const db = new Database(join(appraiser.directory, 'memory.sqlite'));
    db.prepare(
      `INSERT INTO shared_leases (revision, policy, owner, scope, request, groups, system, text, created_at)
       VALUES (5, 5, 'a', 's', 'q', '[]', '', 'q', 'now')`,
    ).run();
    db.close();
    expect(appraiser.readLease(1)).toMatchObject({
      _tag: 'Left',
      left: {
        kind: 'unreadable',
        message: expect.stringMatching(/revision 5, unknown to this build/),
      },
    });
    appraiser.close();
  });

  it('keeps a previous revision-3 lease exactly as it was recorded', async () => {
    const appraiser = await withEvidence();
    // As a previous build recorded it: revision 3 repeats the source on every row.
    const group = {
      source: { id: 1, version: 1, actor: 'alice', subject: 'bob', text: strong },
    };
    const rendered = renderContext([group], 'payments', 3);
    const db = new Database(join(appraiser.directory, 'memory.sqlite'));
    db.prepare(
      `INSERT INTO shared_leases (revision, policy, owner, scope, request, groups, system, text, created_at)
       VALUES (3, 3, 'alice', 'team', 'payments', ?, ?, ?, 'then')`,
    ).run(JSON.stringify([group]), rendered.system, rendered.text);
    db.close();
    const lease = appraiser.readLease(1);
    expect(lease).toMatchObject({
      _tag: 'Right',
      right: { revision: 3, policy: 3, reproduced: true },
    });
    expect(lease._tag === 'Right' && lease.right.context.text).toBe(rendered.text);
    expect(lease._tag === 'Right' && lease.right.context.text).toContain(
      `source=#1 v1 actor="alice" source_ref`,
    );
    appraiser.close();
  });

  it('upgrades a schema-1 memory in place, keeping what it holds', async () => {
    const appraiser = await withEvidence();
    const dir = appraiser.directory;
    appraiser.close();
    const db = new Database(join(dir, 'memory.sqlite'));
    db.exec('DROP TABLE shared_leases');
    db.pragma('user_version = 1');
    db.close();
    const reopened = openAppraiser({ directory: dir });
    expect(reopened.assessments()).toHaveLength(1);
    expect(
      (await reopened.shareContext({ owner: 'alice', scope: 'team', query: 'payments' }))._tag,
    ).toBe('Right');
    reopened.close();
    const check = new Database(join(dir, 'memory.sqlite'), { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    check.close();
  });

  it('refuses a memory written by a newer build rather than misread it', async () => {
    const appraiser = await withEvidence();
    const dir = appraiser.directory;
    appraiser.close();
    const db = new Database(join(dir, 'memory.sqlite'));
    db.pragma('user_version = 3');
    db.close();
    expect(() => openAppraiser({ directory: dir })).toThrow(/newer mecha \(memory schema 3\)/);
  });
});
