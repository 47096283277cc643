import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appraisalChip, appraiseCorpus, listSessions } from '@mecha/appraisal-core';
import { rightOrThrow } from '@mecha/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome } from '../generate-home.js';
import { homePorts } from '../home-ports.js';
import { initHome } from '../init-home.js';
import { openHome } from '../open-home.js';
import { decideDraft } from '../owner/draft-verdict.js';
import { createSessionRecorder } from '../session-recorder.js';
import { HomeReadout, type ReadoutChange } from './home-readout.js';
import { watchHome } from './watch-home.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A home (real files) in a temporary folder, removed after the file's tests. */
function homeOnDisk(sessions: number, seed = 'readout'): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-readout-'));
  made.push(dir);
  const path = join(dir, 'home');
  if (sessions > 0) generateHome({ path, seed, sessions });
  else rightOrThrow(initHome(path));
  return path;
}

const now = new Date('2026-12-01T00:00:00Z');

/** The rows as the core's own `listSessions` derives them from the files, fresh. */
async function freshRows(path: string, at = now) {
  const list = await listSessions(homePorts(openHome(path)), { now: at, includeTests: true });
  return new Map(list.sessions.map((row) => [row.session_id, row]));
}

async function agree(readout: HomeReadout, path: string, at = now): Promise<number> {
  const fresh = await freshRows(path, at);
  let compared = 0;
  for (const row of readout.population({ now: at, includeTests: true })) {
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
    path = homeOnDisk(40);
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
    expect(rightOrThrow(decided).state).toBe('decided');
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
      expect(
        rightOrThrow(await decideDraft(home, { query: draftId, verdict: 'reject', env: {} })).state,
      ).toBe('decided');
      await seen;
      expect(readout.row(recorder.sessionId)?.chip?.negative).toBe(1);
    } finally {
      stop();
    }
  });
});

/** Records one finished run in a new session; returns the session id. */
async function recordRun(path: string, answer: string, stop = false): Promise<string> {
  const recorder = createSessionRecorder(openHome(path));
  const run = rightOrThrow(await recorder.startRun({ surface: 'web', personPresent: true }));
  rightOrThrow(await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: answer }));
  if (stop) rightOrThrow(await run.intervention({ turn: 1, kind: 'stop' }));
  rightOrThrow(await run.end({ stopCause: stop ? 'stopped' : 'completed', turns: 1 }));
  return recorder.sessionId;
}

/** The next change a readout announces that satisfies `wanted`. */
function nextChange(
  readout: HomeReadout,
  wanted: (change: ReadoutChange) => boolean,
): Promise<ReadoutChange> {
  return new Promise((resolve) => {
    const off = readout.subscribe((change) => {
      if (!wanted(change)) return;
      off();
      resolve(change);
    });
  });
}

describe('the live readout on a real home', () => {
  it('converges on the files when recorders write while it refreshes', async () => {
    const path = homeOnDisk(12, 'concurrent');
    const readout = new HomeReadout(openHome(path));
    await readout.start();
    // Eight runs recorded at once, with refreshes racing them: whatever each refresh saw, the
    // last one after the writes must agree with a fresh derivation from the files.
    const written = Promise.all(
      Array.from({ length: 8 }, (_, index) => recordRun(path, `answer ${index}`, index % 2 === 0)),
    );
    const racing = Promise.all([readout.refresh(), readout.refresh(), readout.refresh()]);
    const [sessions] = await Promise.all([written, racing]);
    await readout.refresh();
    for (const sessionId of sessions) expect(readout.row(sessionId)?.endedRuns).toBe(1);
    expect(await agree(readout, path, new Date())).toBeGreaterThanOrEqual(sessions.length);
    // Nothing changed since: a refresh takes nothing in.
    expect(await readout.refresh()).toEqual([]);
  });

  it('reads a torn final line as partial, and whole once the line is finished', async () => {
    const scratch = homeOnDisk(0);
    const sessionId = await recordRun(scratch, 'the plan');
    const lines = readFileSync(join(scratch, 'sessions', `${sessionId}.jsonl`), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    const path = homeOnDisk(0);
    const readout = new HomeReadout(openHome(path));
    await readout.start();
    mkdirSync(join(path, 'sessions'), { recursive: true });
    const file = join(path, 'sessions', `${sessionId}.jsonl`);
    const last = lines.at(-1) as string;
    writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n${last.slice(0, 20)}`);
    await readout.refresh();
    const torn = readout.row(sessionId);
    expect(torn?.state).toBe('partial');
    expect(torn?.endedRuns).toBe(0);
    appendFileSync(file, `${last.slice(20)}\n`);
    await readout.refresh();
    expect(readout.row(sessionId)?.state).toBe('read');
    expect(readout.row(sessionId)?.endedRuns).toBe(1);
    expect(await agree(readout, path)).toBe(1);
  });

  it('reports a transcript it cannot read as unread, with no counts (never 0)', async () => {
    const path = homeOnDisk(3, 'unread');
    // A folder where a transcript should be: it exists, and it cannot be read as one.
    mkdirSync(join(path, 'sessions', 'sess-unreadable.jsonl'));
    const readout = new HomeReadout(openHome(path));
    await readout.start();
    const row = readout.row('sess-unreadable');
    expect(row?.state).toBe('unreadable');
    expect(row?.reason).toMatch(/./);
    expect(row?.runs).toBeNull();
    expect(row?.endedRuns).toBeNull();
    expect(row?.valence).toBeNull();
  });

  it('sees a transcript that appears mid-watch (watchHome yields its path)', async () => {
    const path = homeOnDisk(0);
    const stop = new AbortController();
    const watch = watchHome(path, { signal: stop.signal });
    const sessionId = await recordRun(path, 'appeared');
    const seen: string[] = [];
    for await (const batch of watch) {
      seen.push(...batch);
      if (seen.includes(`sessions/${sessionId}.jsonl`)) break;
    }
    stop.abort();
    expect(seen).toContain(`sessions/${sessionId}.jsonl`);
  });

  it('follows a home whose sessions folder appears after the start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mecha-readout-'));
    made.push(dir);
    const path = join(dir, 'home');
    rightOrThrow(initHome(path));
    rmSync(join(path, 'sessions'), { recursive: true, force: true });
    const readout = new HomeReadout(openHome(path));
    await readout.start();
    expect(readout.rows()).toEqual([]);
    const stop = new AbortController();
    const following = readout.follow({ signal: stop.signal });
    const seen = nextChange(readout, (change) => change.finished.length > 0);
    const sessionId = await recordRun(path, 'first words', true);
    expect((await seen).finished).toEqual([sessionId]);
    stop.abort();
    await following;
    expect(readout.row(sessionId)?.lastAnswer).toBe('first words');
  });
});
