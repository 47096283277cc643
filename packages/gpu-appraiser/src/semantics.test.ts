import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ScriptedAnswer, scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { openAppraiser } from './appraiser.js';
import { type Appraiser, correctionContextLimit } from './appraiser-types.js';

// Semantic behaviour with a scripted model standing in for a competent one: a real model
// cannot run here. The scripted answers go through the same grammar-free parser and publish
// path as a real model's, so these tests check what the appraiser accepts, keeps and refuses.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function appraiserWith(answer: (report: string) => ScriptedAnswer): Appraiser {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-sem-'));
  dirs.push(dir);
  const appraiser = openAppraiser({ directory: dir, model: scriptedAppraiserModel(answer) });
  appraiser.setAppraisal('on');
  appraiser.applyPending();
  return appraiser;
}

async function appraiseOne(
  answer: ScriptedAnswer,
  text: string,
  extra: { task?: string; descriptor?: string } = {},
) {
  const appraiser = appraiserWith(() => answer);
  if (extra.task && extra.descriptor) appraiser.describeTask(extra.task, extra.descriptor);
  appraiser.retainSource({
    text,
    owner: 'alice',
    scope: 'team',
    subject: 'bob',
    ...(extra.task ? { task: extra.task } : {}),
  });
  const run = await appraiser.run();
  const assessments = appraiser.assessments();
  appraiser.close();
  return { item: run.items[0], assessment: assessments[0] };
}

describe('appraisal semantics', () => {
  it('keeps a helpful and a harmful act both positive, never netted', async () => {
    const text = 'Bob fixed the outage quickly. Bob also deleted the backups.';
    const { item, assessment } = await appraiseOne(
      {
        quotes: ['Bob fixed the outage quickly.', 'Bob also deleted the backups.'],
        interpretation: {
          support: 1,
          benefit: 700_000,
          harm: 650_000,
          consequence: 3,
          regard_gain: 400_000,
          regard_loss: 500_000,
          evidence: 'Bob also deleted the backups.',
        },
      },
      text,
    );
    expect(item?.state).toBe('complete');
    expect(assessment).toMatchObject({ benefit: 700_000, harm: 650_000 });
    expect(assessment?.relationship).toMatchObject({ regardGain: 400_000, regardLoss: 500_000 });
  });

  it('keeps an unsupported attribution unknown', async () => {
    const text = 'Someone broke the build last night; nobody knows who.';
    const { item, assessment } = await appraiseOne({ quotes: ['Someone broke the build'] }, text);
    expect(item?.state).toBe('complete');
    expect(assessment).toMatchObject({
      support: 0,
      benefit: null,
      harm: null,
      arousal: null,
      confidence: null,
      consequence: 0,
      evidence: '',
    });
    expect(assessment?.relationship).toMatchObject({
      regardGain: null,
      regardLoss: null,
      trustGain: null,
      trustLoss: null,
      spans: [],
    });
  });

  it('refuses an attribution that is not backed by a quote', async () => {
    const { item, assessment } = await appraiseOne(
      { quotes: [], interpretation: { support: 1, harm: 900_000, evidence: 'Bob broke it' } },
      'Someone broke the build.',
    );
    expect(item).toMatchObject({
      state: 'refused',
      reason: "evidence is not one of call 1's quotes",
    });
    expect(assessment).toBeUndefined();
  });

  it('accepts a commitment only from an explicit promise', async () => {
    const text = 'Bob fixed the build. Bob said he will write the tests tomorrow.';
    const base = { support: 1 as const, benefit: 500_000, evidence: 'Bob fixed the build.' };
    const completed = await appraiseOne(
      {
        quotes: ['Bob fixed the build.'],
        interpretation: { ...base, commitment: 'Bob fixed the build.' },
      },
      text,
    );
    expect(completed.item).toMatchObject({
      state: 'refused',
      reason: 'a commitment must quote an explicit promise of future action',
    });
    const promised = await appraiseOne(
      {
        quotes: ['Bob fixed the build.', 'he will write the tests tomorrow'],
        interpretation: { ...base, commitment: 'he will write the tests tomorrow' },
      },
      text,
    );
    expect(promised.item?.state).toBe('complete');
    expect(promised.assessment?.commitment).toBe('he will write the tests tomorrow');
  });

  it('accepts task trust only from the authored descriptor occurring once', async () => {
    const descriptor = 'migrate the billing database';
    const text = `Bob was asked to ${descriptor} and finished it without data loss.`;
    const answer: ScriptedAnswer = {
      quotes: [descriptor, 'finished it without data loss'],
      interpretation: {
        support: 1,
        trust_gain: 800_000,
        evidence: 'finished it without data loss',
        task: descriptor,
      },
    };
    // The opaque id alone establishes nothing.
    const opaque = await appraiseOne(answer, text, { task: 'T-9' });
    expect(opaque.item).toMatchObject({
      state: 'refused',
      reason: expect.stringMatching(/admitted task with its descriptor/),
    });
    const authored = await appraiseOne(answer, text, { task: 'T-9', descriptor });
    expect(authored.item?.state).toBe('complete');
    expect(authored.assessment?.relationship).toMatchObject({ taskId: 'T-9', trustGain: 800_000 });
    const twice = await appraiseOne(answer, `${text} Again: ${descriptor}.`, {
      task: 'T-9',
      descriptor,
    });
    expect(twice.item).toMatchObject({
      state: 'refused',
      reason: 'the task descriptor must occur exactly once in the source',
    });
  });

  it('lets a correction supersede current assessments and their relationships for the same subject, owner and scope', async () => {
    let reply: ScriptedAnswer = {
      quotes: ['Bob leaked the keys'],
      interpretation: {
        support: 1,
        harm: 900_000,
        regard_loss: 800_000,
        evidence: 'Bob leaked the keys',
      },
    };
    const appraiser = appraiserWith(() => reply);
    appraiser.retainSource({
      text: 'Bob leaked the keys.',
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    // Other owners' and scopes' assessments are never targets.
    appraiser.retainSource({
      text: 'Bob leaked the keys.',
      owner: 'carol',
      scope: 'team',
      subject: 'bob',
    });
    appraiser.retainSource({
      text: 'Bob leaked the keys.',
      owner: 'alice',
      scope: 'other',
      subject: 'bob',
    });
    await appraiser.run();
    reply = {
      quotes: ['it was Dan, not Bob, who leaked the keys'],
      interpretation: {
        support: 1,
        harm: 0,
        regard_loss: 0,
        evidence: 'it was Dan, not Bob, who leaked the keys',
        correction: 1,
      },
    };
    appraiser.retainSource({
      text: 'Correction: it was Dan, not Bob, who leaked the keys.',
      owner: 'alice',
      scope: 'team',
      subject: 'bob',
    });
    expect((await appraiser.run()).items[0]?.state).toBe('complete');
    const statuses = appraiser
      .assessments()
      .map((a) => [a.owner, a.scope, a.status, a.relationship?.status]);
    expect(statuses).toEqual([
      ['alice', 'team', 'superseded', 'superseded'],
      ['carol', 'team', 'current', 'current'],
      ['alice', 'other', 'current', 'current'],
      ['alice', 'team', 'current', 'current'],
    ]);
    appraiser.close();
  });

  it('never targets withdrawn evidence and shows at most 16 recent eligible assessments', async () => {
    let reply: ScriptedAnswer = {
      quotes: ['Bob helped'],
      interpretation: { support: 1, benefit: 1, evidence: 'Bob helped' },
    };
    const appraiser = appraiserWith(() => reply);
    const first = appraiser.retainSource({
      text: 'Bob helped once.',
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    for (let index = 0; index < 19; index += 1) {
      appraiser.retainSource({
        text: `Bob helped ${index}.`,
        owner: 'a',
        scope: 's',
        subject: 'bob',
      });
    }
    await appraiser.run();
    appraiser.withdrawSource(first.sourceId);
    reply = {
      quotes: ['Bob did not help'],
      interpretation: { support: 1, benefit: 0, evidence: 'Bob did not help', correction: 1 },
    };
    appraiser.retainSource({
      text: 'Bob did not help at all.',
      owner: 'a',
      scope: 's',
      subject: 'bob',
    });
    await appraiser.run();
    const after = appraiser.assessments();
    const superseded = after.filter((a) => a.status === 'superseded').map((a) => a.sourceId);
    expect(superseded).toHaveLength(correctionContextLimit);
    // The withdrawn source's assessment stays current: it was never a target.
    expect(after.find((a) => a.sourceId === first.sourceId)?.status).toBe('current');
    // The most recent 16 were the targets.
    expect(Math.min(...superseded)).toBe(after.length - correctionContextLimit);
    appraiser.close();
  });
});
