import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initHome, type MechaHome, openHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportReport } from './import-history.js';
import { importHistory } from './import-history.js';
import { watchHistory } from './watch-history.js';

// A real Codex 0.77 rollout and one written in Codex's shapes (see __fixtures__/real/SOURCES.md),
// written into the watched folder a few lines at a time, as Codex writes them.
const real = fileURLToPath(new URL('./__fixtures__/real/codex/', import.meta.url));
const lines = (name: string) =>
  readFileSync(join(real, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `${line}\n`);
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function setUp(): { home: MechaHome; source: string; folder: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-watch-'));
  made.push(dir);
  initHome(join(dir, 'home'));
  const source = join(dir, 'sessions');
  const folder = join(source, '2026/01/05');
  mkdirSync(folder, { recursive: true });
  return { home: openHome(join(dir, 'home')), source, folder };
}

/** Every transcript line of the home. */
const transcriptLines = (home: MechaHome): string[] => {
  const folder = join(home.path, home.sessions.file('x'), '..');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n'))
    .filter((line) => line !== '');
};

/**
 * A watch on a hand-moved clock: `look()` lets it look at the folder once more and resolves
 * when that look (and the pass it started, if any) is over; `passes` holds every report so far.
 * No clock is read: the test moves it.
 */
async function watching(home: MechaHome, source: string) {
  const stop = new AbortController();
  const passes: ImportReport[] = [];
  let release: (() => void) | undefined;
  let waiting: (() => void) | undefined;
  const waited = () => new Promise<void>((done) => (waiting = done));
  let nextWait = waited();
  const ended = watchHistory(home, {
    tool: 'codex',
    source,
    signal: stop.signal,
    onPass: (report) => passes.push(report),
    wait: (signal) =>
      new Promise<void>((done) => {
        release = done;
        signal.addEventListener('abort', () => done(), { once: true });
        waiting?.();
      }),
  });
  await nextWait;
  const look = async () => {
    nextWait = waited();
    release?.();
    await nextWait;
  };
  return { passes, look, stop: () => stop.abort(), ended };
}

describe('watchHistory', () => {
  it('imports a rollout as it grows, stops on its signal, and a second watch resumes', async () => {
    const { home, source, folder } = setUp();
    const rollout = join(folder, 'rollout-2026-01-05T09-00-00-a.jsonl');
    const first = lines('0.77.0-session-start.jsonl');
    const second = lines('written-0.77.0-shell-command-exit-code.jsonl');
    writeFileSync(rollout, first.slice(0, 6).join(''));

    const watch = await watching(home, source);
    expect(watch.passes).toMatchObject([{ sessions: { created: 1 }, lines: { read: 6 } }]);
    // Nothing changed: a look starts no pass.
    await watch.look();
    expect(watch.passes).toHaveLength(1);
    appendFileSync(rollout, first.slice(6).join(''));
    await watch.look();
    expect(watch.passes[1]).toMatchObject({
      sessions: { created: 0, continued: 1 },
      lines: { read: first.length - 6 },
    });
    // Half a line: left pending until the rest of it is written.
    const last = second[0] as string;
    const other = join(folder, 'rollout-2026-01-05T10-00-00-b.jsonl');
    writeFileSync(other, last.slice(0, 40));
    await watch.look();
    expect(watch.passes[2]).toMatchObject({ lines: { read: 0 }, pending: [other] });
    await watch.look();
    expect(watch.passes).toHaveLength(3);
    appendFileSync(other, `${last.slice(40)}${second.slice(1).join('')}`);
    await watch.look();
    expect(watch.passes[3]).toMatchObject({
      sessions: { created: 1 },
      lines: { read: second.length },
    });
    watch.stop();
    expect(await watch.ended).toEqual(E.right({ passes: 4 }));

    // Stopped: what comes now waits for the next watch, which starts from the ledger.
    const more = join(folder, 'rollout-2026-01-05T11-00-00-c.jsonl');
    writeFileSync(more, lines('written-0.130.0-exec-command-end.jsonl').join(''));
    const again = await watching(home, source);
    expect(again.passes[0]).toMatchObject({
      files: { read: 1, unchanged: 2 },
      sessions: { created: 1, continued: 0 },
    });
    again.stop();
    expect(E.isRight(await again.ended)).toBe(true);

    // Nothing doubled: the same logs imported in one pass into another home read the same.
    const { home: once, source: onceSource, folder: onceFolder } = setUp();
    for (const file of readdirSync(folder)) {
      writeFileSync(join(onceFolder, file), readFileSync(join(folder, file)));
    }
    expect(E.isRight(await importHistory(once, { tool: 'codex', source: onceSource }))).toBe(true);
    const strip = (line: string) =>
      line.replace(/"source":\{"file":"[^"]*"/, '"source":{"file":""');
    expect(transcriptLines(home).map(strip)).toEqual(transcriptLines(once).map(strip));
  });

  it('ends with the failure of a pass, and writes nothing more', async () => {
    const { home, source, folder } = setUp();
    mkdirSync(join(home.path, 'imports'), { recursive: true });
    writeFileSync(join(home.path, 'imports/codex.jsonl'), 'not a ledger\n{}\n');
    writeFileSync(join(folder, 'rollout-x.jsonl'), lines('0.77.0-session-start.jsonl').join(''));
    const stop = new AbortController();
    const ended = await watchHistory(home, {
      tool: 'codex',
      source,
      signal: stop.signal,
      onPass: () => {
        throw new Error('no pass can end');
      },
    });
    expect(E.isLeft(ended) && ended.left.kind).toBe('ledger_damaged');
  });
});
