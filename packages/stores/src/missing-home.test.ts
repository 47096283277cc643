import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { refuseMissingHome } from './missing-home.js';
import { openHome } from './open-home.js';
import { createSessionRecorder } from './session-recorder.js';

// Issue 27, defect 2: the README promises that an absent home is an error, never an empty home;
// the library keeps it too. A write into a home whose folder does not exist is refused with a
// typed `no_home` failure naming `mecha init`, and nothing is created, unless the handle was
// opened with `create: true`.

describe('a home that does not exist', () => {
  it('refuses every kind of write with no_home, naming mecha init, and creates nothing', async () => {
    const path = join(tempDir(), 'absent');
    const home = openHome(path);
    const recorder = createSessionRecorder(home);
    const started = leftOrThrow(await recorder.startRun({ surface: 'cli' }), 'a refusal');
    expect(started).toMatchObject({ kind: 'no_home', path });
    expect(started.message).toContain(`mecha init --home ${path}`);
    expect(started.message).toContain('create: true');
    const staged = await recorder.stageDraft({ tool: 'mail_send', taint: 'clean' });
    expect(E.isLeft(staged) && staged.left.kind).toBe('no_home');
    const put = await home.board.put([
      { v: 1, kind: 'task', id: 'task-1', title: 'x', status: 'next' },
    ]);
    expect(E.isLeft(put) && put.left.kind).toBe('no_home');
    const charter = await home.writeCharter([]);
    expect(E.isLeft(charter) && charter.left.kind).toBe('no_home');
    const edited = await home.editCharter((current) => E.right(current));
    expect(edited).toMatchObject({ state: 'not_written', failure: { kind: 'no_home' } });
    expect(E.isLeft(refuseMissingHome(home))).toBe(true);
    expect(existsSync(path)).toBe(false);
  });

  it('is made by the first write when opened with create: true', async () => {
    const path = join(tempDir(), 'made');
    const home = openHome(path, { create: true });
    expect(E.isRight(refuseMissingHome(home))).toBe(true);
    const recorder = createSessionRecorder(home);
    rightOrThrow(await recorder.startRun({ surface: 'cli' }), 'the first write');
    expect(readdirSync(path)).toEqual(expect.arrayContaining(['manifest.json', 'sessions']));
  });

  it('an existing empty folder is a home: writes go on as before', async () => {
    const path = tempDir();
    const recorder = createSessionRecorder(openHome(path));
    rightOrThrow(await recorder.startRun({ surface: 'cli' }), 'a write into an existing folder');
    expect(existsSync(join(path, 'manifest.json'))).toBe(true);
  });
});
