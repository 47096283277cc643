import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import { readSlackLedger, slackLedgerFile, updateSlackLedger } from './slack-ledger.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const home = () => {
  const path = mkdtempSync(join(tmpdir(), 'mecha-slack-ledger-'));
  made.push(path);
  mkdirSync(join(path, 'slack'));
  return path;
};
const entry = {
  v: 1,
  kind: 'run_end',
  at: '2026-12-01T10:00:00.000Z',
  session_id: 's1',
  run_id: 'r1',
  state: 'posted',
};

describe('the Slack ledger', () => {
  it('reads an absent ledger as empty, and the newest state of each run', async () => {
    const path = home();
    expect(E.isRight(readSlackLedger(path))).toBe(true);
    await updateSlackLedger(path, () => ({
      append: [{ ...entry, state: 'posting' } as never, entry as never],
      result: undefined,
    }));
    const read = readSlackLedger(path);
    expect(E.isRight(read) && read.right.runs.get('s1/r1')?.state).toBe('posted');
  });

  it('ignores a torn last line and refuses a damaged one elsewhere, so nothing posts twice', () => {
    const path = home();
    writeFileSync(join(path, slackLedgerFile), `${JSON.stringify(entry)}\n{"v":1,"kind":"run_`);
    const torn = readSlackLedger(path);
    expect(E.isRight(torn) && torn.right.runs.size).toBe(1);
    appendFileSync(join(path, slackLedgerFile), `\n${JSON.stringify(entry)}\n`);
    expect(readSlackLedger(path)).toEqual(E.left(`${slackLedgerFile}:2 is not JSON`));
  });
});
