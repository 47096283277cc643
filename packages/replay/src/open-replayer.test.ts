import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { openReplayer } from './open-replayer.js';
import { readReplayScript } from './read-replay-script.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const options = (homePath: string) => ({
  homePath,
  configFile: join(homePath, 'config.toml'),
  model: undefined,
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'mecha-replay-open-'));
  folders.push(made);
  return made;
}

describe('readReplayScript and openReplayer', () => {
  it('open a scripted replayer from a relative path in the home', async () => {
    const home = folder();
    writeFileSync(join(home, 'arms.jsonl'), '\n');
    const opened = rightOrThrow(await openReplayer('scripted:arms.jsonl', options(home)));
    await expect(opened.close()).resolves.toBeUndefined();
  });

  it('refuse, as a value naming the file and line, a script that is missing or not JSON', async () => {
    const home = folder();
    const missing = leftOrThrow(await readReplayScript(join(home, 'none.jsonl')));
    expect(missing).toEqual({
      kind: 'unreadable',
      message: `the replay script ${join(home, 'none.jsonl')} cannot be read (ENOENT)`,
    });
    writeFileSync(join(home, 'torn.jsonl'), '\n{"session_id"\n');
    expect(leftOrThrow(await readReplayScript(join(home, 'torn.jsonl')))).toEqual({
      kind: 'unreadable',
      message: `the replay script ${join(home, 'torn.jsonl')} line 2 is not JSON`,
    });
  });

  it('refuse a replayer spec it does not know as a bad request', async () => {
    expect(leftOrThrow(await openReplayer('remote', options(folder())))).toEqual({
      kind: 'bad_request',
      message: '[probe] replayer "remote" is not "local-model" or "scripted:PATH"',
    });
  });
});
