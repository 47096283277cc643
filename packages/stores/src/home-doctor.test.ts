import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { checkHome, repairStore } from './home-doctor.js';
import { homeLayout } from './home-layout.js';
import { initHome } from './init-home.js';
import { openHome } from './open-home.js';
import { createSessionRecorder } from './session-recorder.js';

const at = '2026-09-25T09:00:00Z';
const parked = (id: string) => ({
  v: 1 as const,
  type: 'parked' as const,
  at,
  question_id: id,
  session_id: 's-1',
});

describe('initHome', () => {
  it('creates a home that reads as new and healthy, with the graph server configured', async () => {
    const path = join(tempDir(), 'home');
    const made = initHome(path);
    expect(E.isRight(made) && made.right.created).toEqual([
      'manifest.json',
      'config.toml',
      'charter.toml',
    ]);
    const home = openHome(path);
    const check = await checkHome(home);
    expect(check).toMatchObject({
      exists: true,
      healthy: true,
      config: { state: 'read' },
      charter: { state: 'read', lines: 0 },
      graph: { command: 'mecha-graph-mcp' },
      model: null,
    });
    expect(check.stores.every((store) => store.state === 'read')).toBe(true);
  });

  it('is idempotent and never overwrites what is there', () => {
    const path = tempDir();
    writeFileSync(join(path, homeLayout.config), '[agent]\ntimezone = "Europe/Berlin"\n');
    const first = initHome(path);
    expect(E.isRight(first) && first.right.kept).toEqual(['config.toml']);
    const charter = readFileSync(join(path, homeLayout.charter));
    const second = initHome(path);
    expect(E.isRight(second) && second.right.created).toEqual([]);
    expect(readFileSync(join(path, homeLayout.config), 'utf8')).toContain('Europe/Berlin');
    expect(readFileSync(join(path, homeLayout.charter))).toEqual(charter);
  });

  it('refuses a path that is a file', () => {
    const file = join(tempDir(), 'home');
    writeFileSync(file, 'x');
    const made = initHome(file);
    expect(E.isLeft(made) && made.left.message).toMatch(/is a file, not a folder/);
  });
});

describe('checkHome', () => {
  it('reports a missing home as not existing, and unhealthy', async () => {
    const check = await checkHome(openHome(join(tempDir(), 'nothing')));
    expect(check).toMatchObject({ exists: false, healthy: false });
  });

  it('names every damaged line, the vanished store, a stale lock and a missing model', async () => {
    const path = tempDir();
    initHome(path);
    appendFileSync(join(path, homeLayout.config), '[model]\npath = "models/m.gguf"\n');
    const home = openHome(path);
    await home.questions.append([parked('q-1'), parked('q-2')]);
    appendFileSync(join(path, homeLayout.questions), 'not json\n{"v":1,"ty');
    await home.outbox.append([
      {
        v: 1,
        type: 'staged',
        at,
        draft_id: 'd-1',
        session_id: 's-1',
        tool: 'mail',
        taint: 'clean',
      },
    ]);
    const { rmSync } = await import('node:fs');
    rmSync(join(path, homeLayout.outbox));
    // A lock left by a process that is gone: pid 2^22 + 1 is above Linux's pid limit.
    writeFileSync(
      join(path, 'questions/.lock'),
      `4194305\n${(await import('node:os')).hostname()}\nt\n`,
    );
    const check = await checkHome(home);
    expect(check.healthy).toBe(false);
    expect(check.stores.find((store) => store.file === homeLayout.questions)).toEqual({
      file: homeLayout.questions,
      state: 'partial',
      records: 2,
      skipped: [
        { file: homeLayout.questions, line: 3, reason: 'not JSON' },
        { file: homeLayout.questions, line: 4, reason: 'torn final line: no newline and not JSON' },
      ],
    });
    expect(check.stores.find((store) => store.file === homeLayout.outbox)).toMatchObject({
      state: 'unreadable',
      reason: expect.stringMatching(/vanished/),
    });
    expect(check.model).toEqual({ path: join(path, 'models/m.gguf'), exists: false });
    expect(check.locks).toEqual([
      {
        file: 'questions/.lock',
        holder: expect.objectContaining({ state: 'stale', pid: 4194305 }),
      },
    ]);
  });
});

describe('checkHome: charter sensors', () => {
  it('reads the charter sensors the newest runs recorded, and finds a pinned one', async () => {
    const path = tempDir();
    initHome(path);
    const home = openHome(path);
    const reading = (state: 'within' | 'past_setpoint', level: number) => ({
      line: 'replies',
      rank: 1,
      sensor: 'outbox_age' as const,
      store: 'outbox' as const,
      state,
      setpoint_ms: 7_200_000,
      setpoint_source: 'setpoint' as const,
      level_ms: level,
      withdrawn_saturated: false,
    });
    for (let index = 0; index < 6; index++) {
      const session = createSessionRecorder(home);
      const run = await session.startRun({
        surface: 'cli',
        conditions: { charter: [reading('past_setpoint', 9_000_000 + index)] },
      });
      expect(E.isRight(run)).toBe(true);
    }
    const check = await checkHome(home);
    expect(check.charterSensors).toEqual([
      {
        line: 'replies',
        sensor: 'outbox_age',
        setpointMs: 7_200_000,
        setpointSource: 'setpoint',
        runsRead: 6,
        runsNotRead: 0,
        runsPastSetpoint: 6,
        finding: 'pinned',
      },
    ]);
    // Advice, not damage: a saturated sensor leaves the home healthy.
    expect(check.healthy).toBe(true);
  });
});

describe('repairStore', () => {
  it('keeps every intact line byte for byte, drops the damaged ones, and copies the original beside it', async () => {
    const path = tempDir();
    const home = openHome(path, { clock: () => new Date('2026-10-01T12:00:00Z') });
    await home.questions.append([parked('q-1')]);
    appendFileSync(join(path, homeLayout.questions), 'garbage\n');
    await home.questions.append([parked('q-2')]);
    const original = readFileSync(join(path, homeLayout.questions));
    const repaired = await repairStore(home, homeLayout.questions);
    expect(E.isRight(repaired) && repaired.right).toMatchObject({
      backup: 'questions/questions.jsonl.damaged-2026-10-01T12-00-00-000Z',
      kept: 2,
      discarded: [{ line: 2, reason: 'not JSON' }],
    });
    expect(
      readFileSync(join(path, 'questions/questions.jsonl.damaged-2026-10-01T12-00-00-000Z')),
    ).toEqual(original);
    const lines = original.toString().split('\n');
    expect(readFileSync(join(path, homeLayout.questions), 'utf8')).toBe(
      `${lines[0]}\n${lines[2]}\n`,
    );
    expect((await home.questions.read()).state).toBe('read');
    // A whole store is left alone.
    expect(await repairStore(home, homeLayout.questions)).toEqual(E.right(undefined));
  });

  it('refuses to empty a store whose every line is damaged', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.questions.append([parked('q-1')]);
    writeFileSync(join(path, homeLayout.questions), 'garbage\n');
    const repaired = await repairStore(home, homeLayout.questions);
    expect(E.isLeft(repaired) && repaired.left.message).toMatch(/no intact line/);
    expect(readdirSync(join(path, 'questions')).some((name) => name.includes('damaged'))).toBe(
      false,
    );
    expect(existsSync(join(path, homeLayout.questions))).toBe(true);
  });
});
