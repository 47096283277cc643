import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { homeLayout } from './home-layout.js';
import { openHome } from './open-home.js';

const staged = {
  v: 1 as const,
  type: 'staged' as const,
  at: '2026-09-25T09:00:00Z',
  draft_id: 'draft-1',
  session_id: 's-1',
  tool: 'mail_send',
  taint: 'clean' as const,
};

const event = {
  v: 1 as const,
  at: '2026-09-25T09:00:00Z',
  run_id: 'run-1',
  type: 'run_start' as const,
  session_id: 's-1',
  surface: 'web',
};

function manifestOf(home: string): unknown {
  return JSON.parse(readFileSync(join(home, homeLayout.manifest), 'utf8'));
}

describe('openHome', () => {
  it('reads a new home as empty, store by store', async () => {
    const home = openHome(join(tempDir(), 'never-made'));
    const reads = await Promise.all([
      home.outbox.read(),
      home.questions.read(),
      home.requests.read(),
      home.closures.read(),
      home.workflows.read(),
      home.board.read(),
      home.learning.reflections.read(),
      home.learning.distilled.read(),
      home.ownerOutcomes.read(),
      home.appraisals.textAppraisals.read(),
      home.predictions.read(),
      home.sessions.list(),
    ]);
    for (const read of reads) expect(read).toEqual({ state: 'read', records: [] });
    expect(home.readCharter()).toEqual({ state: 'read', charter: [] });
    expect(E.isRight(home.readConfig())).toBe(true);
  });

  it('lists every store it creates in the manifest', async () => {
    const path = tempDir();
    const home = openHome(path);
    expect(E.isRight(await home.outbox.append([staged]))).toBe(true);
    expect(E.isRight(await home.sessions.append('s-1', [event]))).toBe(true);
    expect(manifestOf(path)).toEqual({ v: 1, created: ['outbox/outbox.jsonl', 'sessions/'] });
  });

  it('reads a store that existed and vanished as unreadable, never as empty', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.outbox.append([staged]);
    await home.sessions.append('s-1', [event]);
    rmSync(join(path, homeLayout.outbox));
    rmSync(join(path, homeLayout.sessions), { recursive: true });
    const outbox = await home.outbox.read();
    expect(outbox.state).toBe('unreadable');
    expect(outbox.state === 'unreadable' && outbox.reason).toMatch(/vanished/);
    expect((await home.sessions.list()).state).toBe('unreadable');
    expect(await home.questions.read()).toEqual({ state: 'read', records: [] });
  });

  it('cannot tell new from vanished in a home that holds stores but no manifest', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.outbox.append([staged]);
    rmSync(join(path, homeLayout.manifest));
    expect((await home.questions.read()).state).toBe('unreadable');
    expect((await home.outbox.read()).state).toBe('read');
  });

  it('reads a missing store as unreadable when the manifest cannot be read', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.outbox.append([staged]);
    writeFileSync(join(path, homeLayout.manifest), '{ not json');
    const questions = await home.questions.read();
    expect(questions.state === 'unreadable' && questions.reason).toMatch(
      /manifest\.json is not JSON/,
    );
  });

  it('adopts a home made without a manifest on its first write', async () => {
    const path = tempDir();
    mkdirSync(join(path, 'outbox'));
    writeFileSync(join(path, homeLayout.outbox), `${JSON.stringify(staged)}\n`);
    const home = openHome(path);
    await home.questions.append([
      { v: 1, type: 'parked', at: '2026-09-25T09:00:00Z', question_id: 'q-1', session_id: 's-1' },
    ]);
    expect(manifestOf(path)).toEqual({
      v: 1,
      created: ['outbox/outbox.jsonl', 'questions/questions.jsonl'],
    });
  });

  it('refuses a record its schema refuses, and writes nothing', async () => {
    const path = tempDir();
    const home = openHome(path);
    const written = await home.outbox.append([staged, { ...staged, draft_id: 'not an id' }]);
    expect(E.isLeft(written) && written.left).toMatchObject({ kind: 'invalid_record', index: 1 });
    expect(await home.outbox.read()).toEqual({ state: 'read', records: [] });
  });

  it('writes only the current version of a record', async () => {
    const home = openHome(tempDir());
    const written = await home.outbox.append([
      {
        v: 1,
        type: 'outcome',
        at: '2026-09-25T09:00:00Z',
        draft_id: 'd-1',
        outcome: 'rejected',
      } as never,
    ]);
    expect(E.isLeft(written)).toBe(true);
  });

  it('stores defaults filled in, as the schema outputs them', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.sessions.append('s-1', [event]);
    const line = readFileSync(join(path, 'sessions', 's-1.jsonl'), 'utf8');
    expect(JSON.parse(line)).toEqual({ ...event, session_kind: 'ordinary' });
  });

  it('reads a session it has no transcript for as unreadable', async () => {
    const home = openHome(tempDir());
    expect((await home.sessions.transcript('s-404')).state).toBe('unreadable');
    expect((await home.sessions.transcript('../etc/passwd')).state).toBe('unreadable');
  });

  it('lists a session whose head cannot be read without a kind or surface', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.sessions.append('20260925T090000-a1b2c3d4', [
      { ...event, session_id: '20260925T090000-a1b2c3d4' },
    ]);
    mkdirSync(join(path, 'sessions'), { recursive: true });
    writeFileSync(join(path, 'sessions', '20260926T100000-deadbeef.jsonl'), 'garbage\n');
    const listing = await home.sessions.list();
    expect(listing).toEqual({
      state: 'read',
      records: [
        {
          sessionId: '20260925T090000-a1b2c3d4',
          startedAt: event.at,
          kind: 'ordinary',
          surface: 'web',
        },
        { sessionId: '20260926T100000-deadbeef', startedAt: '2026-09-26T10:00:00Z' },
      ],
    });
  });
});
