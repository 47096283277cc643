import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionListing, SourceRead, TranscriptEvent } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { openHome } from './open-home.js';
import { readBlockBytes } from './read-jsonl-file.js';

const now = new Date('2027-01-01T00:00:00Z');

interface Visit {
  readonly member: SessionListing;
  readonly transcript: SourceRead<TranscriptEvent>;
}

async function scanAll(path: string, events?: readonly TranscriptEvent['type'][]) {
  const visits: Visit[] = [];
  const progress: [number, number][] = [];
  const listing = await openHome(path).sessions.scan({
    population: { now, includeTests: true },
    ...(events === undefined ? {} : { events }),
    progress: (scanned, total) => progress.push([scanned, total]),
    visit: (member, transcript) => visits.push({ member, transcript }),
  });
  return { listing, visits, progress };
}

const start = (sessionId: string, at: string) =>
  JSON.stringify({
    v: 1,
    at,
    run_id: 'r-1',
    type: 'run_start',
    session_id: sessionId,
    surface: 'cli',
    session_kind: 'ordinary',
  });
const message = (at: string, turn: number, text = 'hello') =>
  JSON.stringify({
    v: 1,
    at,
    run_id: 'r-1',
    type: 'message',
    turn,
    message_id: `m-${turn}`,
    role: 'owner',
    taint: 'clean',
    text,
  });
const end = (at: string) =>
  JSON.stringify({ v: 1, at, run_id: 'r-1', type: 'run_end', stop_cause: 'completed' });

describe('the session store scan', () => {
  it('hands over only the event types asked for, and the last event always', async () => {
    const path = tempDir();
    mkdirSync(join(path, 'sessions'), { recursive: true });
    const id = '20260925T090000-a1b2c3d4';
    const lines = [
      start(id, '2026-09-25T09:00:00Z'),
      message('2026-09-25T09:01:00Z', 1),
      end('2026-09-25T09:02:00Z'),
      message('2026-09-25T09:03:00Z', 2),
    ];
    writeFileSync(join(path, 'sessions', `${id}.jsonl`), `${lines.join('\n')}\n`);
    const { visits } = await scanAll(path, ['run_start', 'run_end']);
    expect(visits[0]?.transcript).toEqual({
      state: 'read',
      records: [0, 2, 3].map((index) => JSON.parse(lines[index] as string)),
    });
  });

  it('reads damaged and odd transcripts as list() and transcript() read them', async () => {
    const path = tempDir();
    const folder = join(path, 'sessions');
    mkdirSync(folder, { recursive: true });
    const ids = {
      headLater: '20260925T090000-00000001',
      badUtf8: '20260925T090000-00000002',
      torn: '20260925T090000-00000003',
      empty: '20260925T090000-00000004',
      folder: '20260925T090000-00000005',
      dangling: '20260925T090000-00000006',
      large: '20260925T090000-00000007',
    };
    const at = '2026-09-25T09:00:00Z';
    writeFileSync(
      join(folder, `${ids.headLater}.jsonl`),
      `garbage\n${start(ids.headLater, at)}\n${end(at)}\n`,
    );
    writeFileSync(
      join(folder, `${ids.badUtf8}.jsonl`),
      Buffer.concat([
        Buffer.from(`${start(ids.badUtf8, at)}\n`),
        Buffer.from([0xff, 0xfe, 0x0a]),
        Buffer.from(`${end(at)}\n`),
      ]),
    );
    writeFileSync(join(folder, `${ids.torn}.jsonl`), `${start(ids.torn, at)}\n{"v":1,"at`);
    writeFileSync(join(folder, `${ids.empty}.jsonl`), '');
    mkdirSync(join(folder, `${ids.folder}.jsonl`));
    symlinkSync(join(folder, 'nowhere.jsonl.gone'), join(folder, `${ids.dangling}.jsonl`));
    // Past one read block: listed from its head, read in blocks.
    const text = 'x'.repeat(1000);
    const body: string[] = [start(ids.large, at)];
    for (let turn = 0; body.length * 1100 < readBlockBytes + 500_000; turn += 1) {
      body.push(message(at, turn, text));
    }
    writeFileSync(join(folder, `${ids.large}.jsonl`), `${body.join('\n')}\n${end(at)}\n`);
    writeFileSync(join(folder, 'not a session id.jsonl'), `${start('x', at)}\n`);

    const home = openHome(path);
    const { listing, visits } = await scanAll(path);
    expect(listing).toEqual(await home.sessions.list());
    expect(listing.state).toBe('partial');
    expect(visits.map((visit) => visit.member.sessionId)).toEqual([
      ids.headLater,
      ids.badUtf8,
      ids.torn,
      ids.large,
    ]);
    for (const visit of visits) {
      expect(visit.transcript).toEqual(await home.sessions.transcript(visit.member.sessionId));
    }
    const skippedLines = (id: string) => {
      const read = visits.find((visit) => visit.member.sessionId === id)?.transcript;
      return read?.state === 'partial' ? read.skipped.map((line) => line.line) : [];
    };
    expect(skippedLines(ids.headLater)).toEqual([1]);
    expect(skippedLines(ids.badUtf8)).toEqual([2]);
    expect(skippedLines(ids.torn)).toEqual([2]);
    const large = visits.find((visit) => visit.member.sessionId === ids.large)?.transcript;
    expect(large?.state === 'read' && large.records.length).toBe(body.length + 1);

    // Every session, heads that could not be read included: each read as transcript() reads it.
    const every: Visit[] = [];
    await home.sessions.scan({
      population: 'every',
      visit: (member, transcript) => every.push({ member, transcript }),
    });
    expect(every.map((visit) => visit.member.sessionId)).toEqual(Object.values(ids).sort());
    for (const visit of every) {
      expect(visit.transcript).toEqual(await home.sessions.transcript(visit.member.sessionId));
    }
    const stateOf = (id: string) =>
      every.find((visit) => visit.member.sessionId === id)?.transcript.state;
    expect([stateOf(ids.empty), stateOf(ids.folder), stateOf(ids.dangling)]).toEqual([
      'read',
      'unreadable',
      'unreadable',
    ]);
  });

  it('answers a missing folder as list() does, and a file in its place as unreadable', async () => {
    const path = tempDir();
    expect((await scanAll(path)).listing).toEqual(await openHome(path).sessions.list());
    writeFileSync(join(path, 'sessions'), 'not a folder');
    const { listing, visits } = await scanAll(path);
    expect(listing.state).toBe('unreadable');
    expect(visits).toEqual([]);
  });
});
