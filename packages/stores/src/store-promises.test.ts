// Regression tests for the promises docs/store-format.md makes about crashes, deletion and size.
import { appendFileSync, existsSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { maxRecordBytes } from './append-lines.js';
import { homeLayout } from './home-layout.js';
import { openHome } from './open-home.js';

const at = '2026-09-25T09:00:00Z';
const message = (text: string) => ({
  v: 1 as const,
  at,
  run_id: 'run-1',
  type: 'message' as const,
  turn: 0,
  message_id: `m-${text.length}`,
  role: 'owner' as const,
  taint: 'clean' as const,
  text,
});
const runStart = {
  v: 1 as const,
  at,
  run_id: 'run-1',
  type: 'run_start' as const,
  session_id: 's-1',
  surface: 'web',
};
const parked = (id: string) => ({
  v: 1 as const,
  type: 'parked' as const,
  at,
  question_id: id,
  session_id: 's-1',
});

describe('a torn tail longer than the tail-check window', () => {
  it('is cut at its own line start, so the next acknowledged record is kept', async () => {
    const path = tempDir();
    const home = openHome(path);
    expect(E.isRight(await home.sessions.append('s-1', [runStart, message('before')]))).toBe(true);
    // What a crash (or a writer from before the record limit) leaves: a long unterminated line.
    const file = join(path, home.sessions.file('s-1'));
    appendFileSync(file, `{"v":1,"type":"message","text":"${'x'.repeat(maxRecordBytes + 70_000)}`);
    expect(E.isRight(await home.sessions.append('s-1', [message('after')]))).toBe(true);
    const read = await home.sessions.transcript('s-1');
    expect(read.state).toBe('read');
    const texts =
      read.state === 'read' ? read.records.map((event) => 'text' in event && event.text) : [];
    expect(texts).toEqual([false, 'before', 'after']);
  });
});

describe('the per-record size limit', () => {
  it('refuses a record larger than the limit with a clear error, and writes nothing', async () => {
    const path = tempDir();
    const home = openHome(path);
    expect(E.isRight(await home.sessions.append('s-1', [runStart]))).toBe(true);
    const before = readFileSync(join(path, home.sessions.file('s-1')));
    const refused = await home.sessions.append('s-1', [message('y'.repeat(maxRecordBytes))]);
    expect(E.isLeft(refused) && refused.left).toMatchObject({
      kind: 'invalid_record',
      index: 0,
    });
    expect(E.isLeft(refused) && refused.left.message).toMatch(
      /record 0 is refused: it is 4\.0 MiB as JSON; a record may be at most 4 MiB/,
    );
    expect(readFileSync(join(path, home.sessions.file('s-1')))).toEqual(before);
  });
});

describe('a store the manifest lists', () => {
  it('reads as unreadable when its file is empty, never as a store with no records', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.questions.append([parked('q-1'), parked('q-2'), parked('q-3')]);
    truncateSync(join(path, homeLayout.questions), 0);
    const read = await home.questions.read();
    expect(read.state).toBe('unreadable');
    expect(read.state === 'unreadable' && read.reason).toMatch(
      /questions\/questions\.jsonl is empty, but manifest\.json lists it as created/,
    );
  });

  it('is never recreated by a writer after it vanished', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.questions.append([parked('q-1')]);
    rmSync(join(path, homeLayout.questions));
    const refused = await home.questions.append([parked('q-2')]);
    expect(E.isLeft(refused) && refused.left.kind).toBe('vanished');
    expect(E.isLeft(refused) && refused.left.message).toMatch(
      /questions\/questions\.jsonl was created in this home and has vanished.*Restore it/,
    );
    expect(existsSync(join(path, homeLayout.questions))).toBe(false);
    expect((await home.questions.read()).state).toBe('unreadable');
  });
});

describe('a transcript this home recorded', () => {
  it('is reported as gone by the listing once deleted, and never recreated by a writer', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.sessions.append('s-1', [runStart]);
    await home.sessions.append('s-2', [{ ...runStart, session_id: 's-2' }]);
    rmSync(join(path, home.sessions.file('s-1')));
    const listing = await home.sessions.list();
    expect(listing.state).toBe('partial');
    expect(listing.state === 'partial' && listing.records.map((entry) => entry.sessionId)).toEqual([
      's-2',
    ]);
    expect(listing.state === 'partial' && listing.skipped).toEqual([
      {
        file: 'sessions/s-1.jsonl',
        line: 0,
        reason: 'recorded in this home (sessions/known.log) and has vanished',
      },
    ]);
    const refused = await home.sessions.append('s-1', [message('late')]);
    expect(E.isLeft(refused) && refused.left.kind).toBe('vanished');
    expect(existsSync(join(path, home.sessions.file('s-1')))).toBe(false);
  });
});
