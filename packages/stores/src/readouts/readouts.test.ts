import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { homeLayout } from '../home-layout.js';
import { homePorts } from '../home-ports.js';
import { type MechaHome, openHome } from '../open-home.js';
import { createSessionRecorder } from '../session-recorder.js';
import { withReadLog } from './read-log.js';
import { sessionReadout } from './session-readout.js';
import { listTasks } from './task-list.js';
import { textAppraisalReadout } from './text-appraisals.js';

const appraisal = (id: string, at: string) => ({
  v: 1 as const,
  appraisal_id: id,
  session_id: '20260925T090000-aaaa0001',
  at,
  taint: 'clean' as const,
  interpretation: 'fine',
  claims_kept: 0,
  claims_dropped: {},
});

function damage(home: MechaHome, file: string): void {
  mkdirSync(join(home.path, file, '..'), { recursive: true });
  appendFileSync(join(home.path, file), '{not json\n');
}

describe('textAppraisalReadout', () => {
  it('keeps the newest first, ties by id descending, up to the limit', async () => {
    const home = openHome(tempDir());
    const written = await home.appraisals.textAppraisals.append([
      appraisal('ta-1', '2026-09-25T09:00:00.000Z'),
      appraisal('ta-3', '2026-09-26T09:00:00.000Z'),
      appraisal('ta-2', '2026-09-26T09:00:00.000Z'),
    ]);
    expect(E.isRight(written)).toBe(true);
    const readout = await textAppraisalReadout(home, { limit: 2 });
    expect(readout.total).toBe(3);
    expect(readout.newest.map((record) => record.appraisal_id)).toEqual(['ta-3', 'ta-2']);
    expect((await textAppraisalReadout(home)).newest).toHaveLength(3);
  });

  it('says unknown, not zero, when the store cannot be read', async () => {
    const home = openHome(tempDir());
    mkdirSync(join(home.path, homeLayout.textAppraisals), { recursive: true });
    const readout = await textAppraisalReadout(home);
    expect(readout.source.state).toBe('unreadable');
    expect(readout.total).toBeNull();
  });
});

describe('listTasks', () => {
  it('lists open tasks unless all, a status or a project says otherwise', async () => {
    const home = openHome(tempDir());
    await home.board.put([
      { v: 1, kind: 'task', id: 'task-1', title: 'a', status: 'inbox', project_id: 'p' },
      { v: 1, kind: 'task', id: 'task-2', title: 'b', status: 'next' },
    ]);
    const ids = async (filter: Parameters<typeof listTasks>[1]) => {
      const list = await listTasks(home, filter);
      return list.state === 'unreadable' ? null : list.tasks.map((task) => task.id);
    };
    expect(await ids({})).toEqual(['task-1', 'task-2']);
    expect(await ids({ projectId: 'p' })).toEqual(['task-1']);
    expect(await ids({ status: 'next' })).toEqual(['task-2']);
    damage(home, homeLayout.board);
    expect(await listTasks(home)).toMatchObject({ state: 'partial', skipped: 1 });
  });
});

describe('withReadLog', () => {
  it('names each source not read whole, once, however often it is read', async () => {
    const home = openHome(tempDir());
    await createSessionRecorder(home).parkQuestion();
    damage(home, homeLayout.questions);
    const logged = withReadLog(homePorts(home));
    await logged.ports.questions.read();
    await logged.ports.questions.read();
    await logged.ports.outbox.read();
    expect(logged.problems()).toEqual([
      { source: 'questions', what: expect.stringMatching(/line 2: /) },
    ]);
  });
});

describe('sessionReadout', () => {
  it('refuses a prefix that matches no session, or several, in one line', async () => {
    const home = openHome(tempDir());
    for (const id of ['20260925T090000-aaaa0001', '20260925T090000-aaaa0002']) {
      const run = await createSessionRecorder(home, { sessionId: id }).startRun({ surface: 'cli' });
      expect(E.isRight(run)).toBe(true);
    }
    const ports = homePorts(home);
    expect(leftOrThrow(await sessionReadout(ports, 'nope'))).toEqual({
      kind: 'not_found',
      message: 'no session matches "nope"',
    });
    expect(leftOrThrow(await sessionReadout(ports, '20260925T090000-aaaa'))).toEqual({
      kind: 'ambiguous',
      message:
        '"20260925T090000-aaaa" matches 2 sessions (20260925T090000-aaaa0001, 20260925T090000-aaaa0002): give more of the id',
    });
    expect(rightOrThrow(await sessionReadout(ports, '20260925T090000-aaaa0002')).state).toBe(
      'appraised',
    );
  });
});
