import { appraisalChip, appraiseCorpus, listSessions } from '@mecha/appraisal-core';
import {
  createSessionRecorder,
  decideDraft,
  homePorts,
  openHome,
  rightOrThrow,
} from '@mecha/stores';
import { beforeAll, describe, expect, it } from 'vitest';
import { HomeReadout, type ReadoutChange } from '../src/readout/home-readout.js';
import { generatedHome } from './helpers.js';

const now = new Date('2026-12-01T00:00:00Z');

/** The rows as the core's own `listSessions` derives them from the files, fresh. */
async function freshRows(path: string) {
  const list = await listSessions(homePorts(openHome(path)), { now, includeTests: true });
  return new Map(list.sessions.map((row) => [row.session_id, row]));
}

async function agree(readout: HomeReadout, path: string): Promise<number> {
  const fresh = await freshRows(path);
  let compared = 0;
  for (const row of readout.population({ now, includeTests: true })) {
    const expected = fresh.get(row.sessionId);
    expect(expected, row.sessionId).toBeDefined();
    if (expected === undefined) continue;
    expect(row.label).toEqual(expected.label);
    expect(row.valence).toEqual(expected.valence);
    expect(row.chip).toEqual(
      expected.valence === null
        ? undefined
        : appraisalChip({ valence: expected.valence, label: expected.label ?? undefined }),
    );
    compared += 1;
  }
  expect(compared).toBe(fresh.size);
  return compared;
}

describe('the in-memory readout', () => {
  let path: string;
  let readout: HomeReadout;
  const changes: ReadoutChange[] = [];

  beforeAll(async () => {
    path = generatedHome(40, 'readout');
    readout = new HomeReadout(openHome(path));
    await readout.start();
    readout.subscribe((change) => changes.push(change));
  });

  it('derives every session as the core does from the files', async () => {
    expect(await agree(readout, path)).toBeGreaterThan(30);
  });

  it('serves the corpus readout from memory equal to the one read from the files', async () => {
    const options = { now, days: 400 };
    expect(await readout.corpus(options)).toEqual(
      await appraiseCorpus(homePorts(openHome(path)), options),
    );
  });

  it('re-derives a session a recorder appended a run to, and says a run finished with something signed', async () => {
    const home = openHome(path);
    const recorder = createSessionRecorder(home);
    const run = rightOrThrow(await recorder.startRun({ surface: 'web', personPresent: true }));
    rightOrThrow(
      await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'Here is the plan.' }),
    );
    rightOrThrow(await run.intervention({ turn: 1, kind: 'stop' }));
    rightOrThrow(await run.end({ stopCause: 'stopped', turns: 1 }));
    const versionBefore = readout.version;
    await readout.changed([`sessions/${recorder.sessionId}.jsonl`]);
    expect(readout.version).toBe(versionBefore + 1);
    const row = readout.row(recorder.sessionId);
    expect(row?.lastAnswer).toBe('Here is the plan.');
    expect(row?.chip?.tone).toBe('negative');
    expect(changes.at(-1)?.finished).toEqual([recorder.sessionId]);
    expect(readout.latest).toBe(recorder.sessionId);
    await agree(readout, path);
  });

  it('sends no finished run for a silent one', async () => {
    const home = openHome(path);
    const recorder = createSessionRecorder(home);
    const run = rightOrThrow(await recorder.startRun({ surface: 'web' }));
    rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
    await readout.changed([`sessions/${recorder.sessionId}.jsonl`]);
    expect(readout.row(recorder.sessionId)?.chip).toBeUndefined();
    expect(changes.at(-1)?.finished).toEqual([]);
    expect(changes.at(-1)?.changed).toEqual([recorder.sessionId]);
  });

  it('re-derives the sessions a store change touches (a rejected draft signs on its session)', async () => {
    const home = openHome(path);
    const recorder = createSessionRecorder(home);
    const run = rightOrThrow(await recorder.startRun({ surface: 'web' }));
    rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
    const { draftId } = rightOrThrow(
      await recorder.stageDraft({ tool: 'mail_send', taint: 'clean', text: 'Hi' }),
    );
    await readout.changed([`sessions/${recorder.sessionId}.jsonl`, 'outbox/outbox.jsonl']);
    expect(readout.row(recorder.sessionId)?.chip).toBeUndefined();
    const decided = await decideDraft(home, { query: draftId, verdict: 'reject', env: {} });
    expect(decided.state).toBe('decided');
    await readout.changed(['outbox/outbox.jsonl']);
    expect(readout.row(recorder.sessionId)?.chip?.negative).toBe(1);
    expect(changes.at(-1)?.changed).toContain(recorder.sessionId);
    await agree(readout, path);
  });

  it('picks up changes by watching the home', async () => {
    const stop = readout.watch();
    try {
      const seen = new Promise<ReadoutChange>((resolve) => {
        const off = readout.subscribe((change) => {
          if (change.finished.length > 0) {
            off();
            resolve(change);
          }
        });
      });
      const recorder = createSessionRecorder(openHome(path));
      const run = rightOrThrow(await recorder.startRun({ surface: 'tui' }));
      rightOrThrow(await run.intervention({ turn: 1, kind: 'steer' }));
      rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
      const change = await seen;
      expect(change.finished).toContain(recorder.sessionId);
    } finally {
      stop();
    }
  });

  it('watches the stores too: a draft rejected elsewhere re-derives its session', async () => {
    const home = openHome(path);
    const recorder = createSessionRecorder(home);
    const run = rightOrThrow(await recorder.startRun({ surface: 'web' }));
    rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
    const { draftId } = rightOrThrow(
      await recorder.stageDraft({ tool: 'mail_send', taint: 'clean' }),
    );
    await readout.changed([`sessions/${recorder.sessionId}.jsonl`, 'outbox/outbox.jsonl']);
    const stop = readout.watch();
    try {
      const seen = new Promise<void>((resolve) => {
        const off = readout.subscribe((change) => {
          if (
            change.changed.includes(recorder.sessionId) &&
            readout.row(recorder.sessionId)?.chip !== undefined
          ) {
            off();
            resolve();
          }
        });
      });
      expect((await decideDraft(home, { query: draftId, verdict: 'reject', env: {} })).state).toBe(
        'decided',
      );
      await seen;
      expect(readout.row(recorder.sessionId)?.chip?.negative).toBe(1);
    } finally {
      stop();
    }
  });
});
